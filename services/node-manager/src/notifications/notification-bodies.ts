/**
 * What each channel type sends for an alarm change: pure functions from the notified alarm to the
 * body (CONTRIBUTING rule 8). The senders add the network.
 */
import { createHash, createHmac } from 'node:crypto';
import type { NotifiedAlarm } from '../model/notification-records.js';

/** Header carrying `sha256=<hex HMAC-SHA256 of the body>` keyed with the channel's secret. */
export const SIGNATURE_HEADER = 'x-triad-signature';
/** Header carrying the body's `timestamp` (s since the epoch): receivers refuse old ones (replays). */
export const TIMESTAMP_HEADER = 'x-triad-timestamp';
/** Header carrying the notification id, the same on every retry: receivers drop repeats. */
export const DELIVERY_HEADER = 'x-triad-delivery';

const VERB: Record<NotifiedAlarm['action'], string> = {
  raised: 'raised',
  acknowledged: 'acknowledged',
  cleared: 'cleared',
};

/** One line saying what happened, e.g. `[MAJOR] process_limit raised on app@host: ...`. */
export function summaryLine(alarm: NotifiedAlarm): string {
  const by = alarm.action === 'acknowledged' && alarm.ackUser ? ` by ${alarm.ackUser}` : '';
  const what = alarm.description || alarm.probableCause || alarm.additionalInformation;
  const line = `[${alarm.severity.toUpperCase()}] ${alarm.alarmId} ${VERB[alarm.action]}${by} on ${alarm.nodeName}`;
  return what ? `${line}: ${what}` : line;
}

/** The alarm as the webhook and the e-mail describe it. */
function alarmFields(alarm: NotifiedAlarm) {
  return {
    alarmId: alarm.alarmId,
    severity: alarm.severity,
    nodeId: alarm.nodeId,
    nodeName: alarm.nodeName,
    source: alarm.rawSrc,
    eventUs: alarm.eventUs,
    probableCause: alarm.probableCause,
    description: alarm.description,
    additionalInformation: alarm.additionalInformation,
    tags: alarm.tags,
    ackUser: alarm.ackUser,
  };
}

/**
 * The generic webhook's JSON body. `timestamp` (s) is inside the signed body, so a receiver that
 * checks the signature and refuses old timestamps cannot be fed a replayed delivery.
 */
export function webhookBody(notificationId: string, alarm: NotifiedAlarm, nowMs: number): string {
  return JSON.stringify({
    type: `alarm.${alarm.action}`,
    notificationId,
    timestamp: Math.floor(nowMs / 1000),
    time: new Date(alarm.time).toISOString(),
    summary: summaryLine(alarm),
    alarm: alarmFields(alarm),
  });
}

/** `sha256=<hex>`: the HMAC-SHA256 of `body` keyed with `secret`. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** A Slack incoming webhook's body: the text, and one section block with it. */
export function slackBody(alarm: NotifiedAlarm): string {
  const icon =
    alarm.action === 'cleared' ? ':white_check_mark:' : alarm.action === 'acknowledged' ? ':eyes:' : ':rotating_light:';
  const text = `${icon} ${summaryLine(alarm)}`;
  return JSON.stringify({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: escapeSlack(text) } }] });
}

/** Slack's three control characters, escaped as its docs ask. */
function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const PAGERDUTY_ACTION: Record<NotifiedAlarm['action'], string> = {
  raised: 'trigger',
  acknowledged: 'acknowledge',
  cleared: 'resolve',
};

/** PagerDuty's severities for WombatOAM's. */
function pagerDutySeverity(severity: string): string {
  if (severity === 'critical') return 'critical';
  if (severity === 'major') return 'error';
  if (severity === 'minor' || severity === 'warning') return 'warning';
  return 'info';
}

/**
 * The incident key of one alarm instance: the same for its trigger, acknowledge and resolve (its
 * event time and a hash of its id and source), and another for the next raise of the same alarm.
 */
export function pagerDutyDedupKey(alarm: NotifiedAlarm): string {
  const hash = createHash('sha256').update(`${alarm.alarmId}\n${alarm.rawSrc}`).digest('hex').slice(0, 24);
  return `triad-${alarm.eventUs}-${hash}`;
}

/** A PagerDuty Events API v2 event; `payload` only with `trigger`, as the API asks. */
export function pagerDutyBody(routingKey: string, alarm: NotifiedAlarm): string {
  const action = PAGERDUTY_ACTION[alarm.action];
  const event = { routing_key: routingKey, event_action: action, dedup_key: pagerDutyDedupKey(alarm) };
  if (action !== 'trigger') return JSON.stringify(event);
  return JSON.stringify({
    ...event,
    payload: {
      summary: summaryLine(alarm).slice(0, 1024),
      source: alarm.nodeName,
      severity: pagerDutySeverity(alarm.severity),
      timestamp: new Date(alarm.time).toISOString(),
      component: alarm.alarmId,
      custom_details: alarmFields(alarm),
    },
  });
}

/** The e-mail's subject and plain-text body. */
export function emailContent(alarm: NotifiedAlarm): { subject: string; text: string } {
  const fields = alarmFields(alarm);
  const lines = [
    summaryLine(alarm),
    '',
    ...Object.entries(fields)
      .filter(([, value]) => value !== '' && value !== null)
      .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`),
    `time: ${new Date(alarm.time).toISOString()}`,
  ];
  const subject = `[Triad] ${summaryLine(alarm)}`.replace(/[\r\n]+/g, ' ').slice(0, 200);
  return { subject, text: `${lines.join('\n')}\n` };
}
