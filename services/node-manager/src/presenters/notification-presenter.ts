import type { ChannelRecord, SubscriptionRecord } from '../model/notification-records.js';
import type { Delivery } from '../repositories/notification-outbox-repository.js';

/**
 * A channel as `GET /api/notifications/channels` shows it: its settings in the clear, and of its
 * secrets (webhook secret, Slack URL, routing key, SMTP password) only the names, in `secrets`.
 */
export function presentChannel(channel: ChannelRecord) {
  const { type, ...settings } = channel.settings;
  const shown: Record<string, unknown> = { ...settings };
  // A private CA is long and of no interest in a list: say whether there is one.
  if ('ca' in shown) shown.ca = shown.ca !== null;
  return {
    id: channel.id,
    name: channel.name,
    type,
    ...shown,
    secrets: [...channel.secretFields],
    createdAt: channel.createdAt,
  };
}

export function presentSubscription(subscription: SubscriptionRecord) {
  return {
    id: subscription.id,
    username: subscription.username,
    channelId: subscription.channelId,
    minSeverity: subscription.minSeverity,
    tags: [...subscription.tags],
    alarmIds: [...subscription.alarmIds],
    nodeFamilyId: subscription.nodeFamilyId,
    createdAt: subscription.createdAt,
  };
}

export function presentDelivery({ notification, attempts }: Delivery) {
  const { alarm } = notification;
  return {
    id: notification.id,
    channelId: notification.channelId,
    status: notification.status,
    attemptCount: notification.attempts,
    nextAttemptAt: notification.status === 'pending' ? notification.nextAttemptAt : null,
    createdAt: notification.createdAt,
    alarm: {
      action: alarm.action,
      alarmId: alarm.alarmId,
      nodeId: alarm.nodeId,
      nodeName: alarm.nodeName,
      severity: alarm.severity,
      eventUs: alarm.eventUs,
    },
    attempts: attempts.map((attempt) => ({
      attempt: attempt.attempt,
      startedAt: attempt.startedAt,
      durationMs: attempt.durationMs,
      ok: attempt.ok,
      statusCode: attempt.statusCode,
      reply: attempt.reply,
      error: attempt.error,
    })),
  };
}
