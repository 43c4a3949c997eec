import type { SecretPurpose } from '@triad/service-kit';

/**
 * The secrets of notification channels (webhook keys, Slack URLs, PagerDuty routing keys, SMTP
 * passwords) are sealed with the node-cookie keys for this use only (`SecretCipher.withPurpose`).
 */
export const CHANNEL_SECRETS: SecretPurpose = Object.freeze({
  aad: 'triad-node-manager:notification-channel',
  what: 'notification channel secret',
});
