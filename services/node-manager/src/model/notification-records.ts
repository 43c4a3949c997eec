/**
 * Alarm notifications (issue 28, docs/decisions/0043): channels say where to send, subscriptions
 * say which alarm changes a user wants, the outbox holds one notification per channel and alarm
 * change, and every delivery attempt is kept.
 */

export const CHANNEL_TYPES = ['webhook', 'slack', 'pagerduty', 'email'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** PagerDuty's Events API v2 endpoint, the default `url` of a `pagerduty` channel. */
export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';

/** What a channel keeps in the clear (returned by `GET /api/notifications/channels`). */
export type ChannelSettings =
  | { readonly type: 'webhook'; readonly url: string }
  | { readonly type: 'slack' }
  | { readonly type: 'pagerduty'; readonly url: string }
  | {
      readonly type: 'email';
      readonly host: string;
      readonly port: number;
      readonly starttls: boolean;
      readonly user: string | null;
      readonly from: string;
      readonly to: readonly string[];
      /** PEM certificates trusted for the server's TLS besides the system's (a private CA). */
      readonly ca: string | null;
    };

/**
 * What a channel keeps sealed at rest and never returns: the webhook's HMAC key, the Slack
 * incoming-webhook URL (whoever has it may post), the PagerDuty routing key, the SMTP password.
 */
export interface ChannelSecrets {
  readonly secret?: string;
  readonly url?: string;
  readonly routingKey?: string;
  readonly password?: string;
}

export interface ChannelRecord {
  readonly id: string;
  readonly name: string;
  readonly settings: ChannelSettings;
  /** Which secret fields are set (their names only). */
  readonly secretFields: readonly (keyof ChannelSecrets)[];
  readonly createdAt: number;
}

/** A channel with its opened secrets, for the sender only. */
export interface ChannelTarget {
  readonly channel: ChannelRecord;
  readonly secrets: ChannelSecrets;
}

export interface SubscriptionRecord {
  readonly id: string;
  readonly username: string;
  readonly channelId: string;
  /** Lowest severity notified (`critical` > `major` > `minor` > `warning` > `indeterminate`). */
  readonly minSeverity: string;
  /** Only alarms with one of these tags; empty: any. */
  readonly tags: readonly string[];
  /** Only these alarm ids; empty: any. */
  readonly alarmIds: readonly string[];
  /** Only alarms of nodes in this family; null: any. */
  readonly nodeFamilyId: string | null;
  readonly createdAt: number;
}

/** The alarm changes that are notified. */
export const NOTIFIED_ACTIONS = ['raised', 'acknowledged', 'cleared'] as const;
export type NotifiedAction = (typeof NOTIFIED_ACTIONS)[number];

/** The alarm as a notification carries it: a snapshot taken when it changed. */
export interface NotifiedAlarm {
  readonly action: NotifiedAction;
  readonly alarmId: string;
  readonly eventUs: number;
  readonly nodeId: string;
  readonly nodeName: string;
  readonly rawSrc: string;
  readonly severity: string;
  readonly probableCause: string;
  readonly description: string;
  readonly additionalInformation: string;
  readonly tags: readonly string[];
  /** Who acknowledged, for `acknowledged`. */
  readonly ackUser: string | null;
  /** When the change happened, ms since the epoch. */
  readonly time: number;
}

export const DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface NotificationRecord {
  readonly id: string;
  readonly channelId: string;
  readonly alarm: NotifiedAlarm;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly nextAttemptAt: number;
  readonly createdAt: number;
}

/** One try at delivering a notification. */
export interface DeliveryAttempt {
  readonly notificationId: string;
  readonly attempt: number;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly ok: boolean;
  /** The HTTP status of a webhook, Slack or PagerDuty reply. */
  readonly statusCode: number | null;
  /** The SMTP server's last reply, or the start of an HTTP reply body. */
  readonly reply: string | null;
  readonly error: string | null;
}

const SEVERITY_RANK: Readonly<Record<string, number>> = {
  critical: 5,
  major: 4,
  minor: 3,
  warning: 2,
  indeterminate: 1,
};

/** Severities a subscription may name as its minimum. */
export const SEVERITIES = Object.keys(SEVERITY_RANK);

/** Rank of a severity; unknown ones rank as `indeterminate`. */
export function severityRank(severity: string): number {
  return SEVERITY_RANK[severity] ?? 1;
}

/** Whether a subscription asks for this alarm change (`familyId`: the family of the alarm's node). */
export function subscriptionMatches(
  subscription: SubscriptionRecord,
  alarm: NotifiedAlarm,
  familyId: string | undefined,
): boolean {
  if (severityRank(alarm.severity) < severityRank(subscription.minSeverity)) return false;
  if (subscription.tags.length > 0 && !subscription.tags.some((tag) => alarm.tags.includes(tag))) return false;
  if (subscription.alarmIds.length > 0 && !subscription.alarmIds.includes(alarm.alarmId)) return false;
  return subscription.nodeFamilyId === null || subscription.nodeFamilyId === familyId;
}

/** Whether a user's tag filter (`'all'` or a list) lets them see an alarm with these tags. */
export function tagsVisible(userTags: 'all' | readonly string[], alarmTags: readonly string[]): boolean {
  return userTags === 'all' || userTags.some((tag) => alarmTags.includes(tag));
}

/** Wait before attempt `attempt + 1` after `attempt` failed: base * 2^(attempt-1), at most `maxMs`. */
export function retryDelayMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}
