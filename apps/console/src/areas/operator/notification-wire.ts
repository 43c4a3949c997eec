/**
 * The notification API's replies (`/api/notifications/...`) as the Notifications page reads them,
 * named from the generated types, and the pure rules of its forms: which fields a channel type
 * takes, what each field must hold (checked before sending, so an error sits at its field), and
 * which field a refusal of the API belongs to.
 */
import type { paths } from '../../generated/node-manager-api.js';
import type { ReplyBody } from '../../shell/api-types.js';

/** `GET /api/notifications/channels`: one channel, its secrets named only. */
export type ChannelWire = ReplyBody<paths['/api/notifications/channels']['get']>['channels'][number];
/** One subscription. */
export type SubscriptionWire = ReplyBody<paths['/api/notifications/subscriptions']['get']>['subscriptions'][number];
/** One notification with its attempts. */
export type DeliveryWire = ReplyBody<paths['/api/notifications/deliveries']['get']>['deliveries'][number];

/** The channel types, as the API names them, with their labels. */
export const CHANNEL_TYPES = [
  { id: 'webhook', label: 'Webhook (JSON, HMAC-signed)' },
  { id: 'slack', label: 'Slack incoming webhook' },
  { id: 'pagerduty', label: 'PagerDuty Events API v2' },
  { id: 'email', label: 'E-mail over SMTP' },
] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number]['id'];

/** The severities a subscription may start at, lowest first, as the API names them. */
export const SEVERITIES = ['indeterminate', 'warning', 'minor', 'major', 'critical'] as const;

/** Every field of the channel form, as text (a checkbox is `'true'` or `''`). */
export interface ChannelDraft {
  readonly type: ChannelType;
  readonly name: string;
  readonly url: string;
  readonly secret: string;
  readonly routingKey: string;
  readonly host: string;
  readonly port: string;
  readonly starttls: boolean;
  readonly user: string;
  readonly password: string;
  readonly from: string;
  readonly to: string;
}

export type ChannelField = Exclude<keyof ChannelDraft, 'type'>;

/** An empty form of `type` (STARTTLS on, port 587). */
export function emptyChannelDraft(type: ChannelType = 'webhook'): ChannelDraft {
  return {
    type,
    name: '',
    url: '',
    secret: '',
    routingKey: '',
    host: '',
    port: '587',
    starttls: true,
    user: '',
    password: '',
    from: '',
    to: '',
  };
}

/** The fields the form shows for a type (name first); the others are not sent. */
export function channelFields(type: ChannelType): readonly ChannelField[] {
  switch (type) {
    case 'webhook':
      return ['name', 'url', 'secret'];
    case 'slack':
      return ['name', 'url'];
    case 'pagerduty':
      return ['name', 'routingKey', 'url'];
    case 'email':
      return ['name', 'host', 'port', 'starttls', 'user', 'password', 'from', 'to'];
  }
}

const MAILBOX = /^[^\s@,;<>"]+@[^\s@,;<>"]+$/;
const HTTP_URL = /^https?:\/\/[^\s/@]+(\/\S*)?$/i;

/** The addresses of the "To" field: separated by commas, spaces or new lines. */
export function recipients(to: string): string[] {
  return to.split(/[\s,;]+/).filter(Boolean);
}

/**
 * What is wrong with each field of `draft`, in words that say how to fix it; empty when it may be
 * sent. Mirrors the API's rules (decision 0043), so most mistakes are told before a round trip.
 */
export function channelProblems(draft: ChannelDraft): Partial<Record<ChannelField, string>> {
  const problems: Partial<Record<ChannelField, string>> = {};
  const shown = new Set(channelFields(draft.type));
  if (draft.name.trim().length > 100) problems.name = 'A name is at most 100 characters. Shorten it.';
  const url = draft.url.trim();
  if (shown.has('url') && (url !== '' || draft.type !== 'pagerduty')) {
    if (url === '') problems.url = 'Enter the URL the notifications are posted to.';
    else if (!HTTP_URL.test(url))
      problems.url = 'Enter an absolute http:// or https:// URL without a user name or password in it.';
  }
  if (shown.has('secret') && draft.secret.length < 16)
    problems.secret = 'The signing secret needs at least 16 characters (the receiver checks the HMAC with it).';
  if (shown.has('routingKey') && draft.routingKey.trim() === '')
    problems.routingKey = "Enter the integration key of the PagerDuty service (its 'Events API v2' integration).";
  if (draft.type === 'email') {
    if (!/^[A-Za-z0-9.:_[\]-]+$/.test(draft.host.trim()))
      problems.host = 'Enter the SMTP server as a host name or IP address, without a port.';
    const port = Number(draft.port);
    if (!Number.isInteger(port) || port < 1 || port > 65_535) problems.port = 'Enter a port from 1 to 65535.';
    if ((draft.user === '') !== (draft.password === ''))
      problems[draft.user === '' ? 'user' : 'password'] = 'Enter the SMTP user and password together, or neither.';
    else if (draft.password !== '' && !draft.starttls)
      problems.starttls = 'A password is sent only over STARTTLS: turn STARTTLS on, or leave user and password out.';
    if (!MAILBOX.test(draft.from.trim())) problems.from = 'Enter the sender as name@domain.';
    const to = recipients(draft.to);
    const bad = to.find((address) => !MAILBOX.test(address));
    if (to.length === 0) problems.to = 'Enter at least one recipient, name@domain.';
    else if (to.length > 20) problems.to = 'Enter at most 20 recipients.';
    else if (bad !== undefined) problems.to = `${bad} is not an address of the form name@domain.`;
  }
  return problems;
}

/** The body of `POST /api/notifications/channels` for a draft with no problems. */
export function channelBody(draft: ChannelDraft): Record<string, unknown> {
  const body: Record<string, unknown> = { type: draft.type };
  const name = draft.name.trim();
  if (name !== '') body.name = name;
  switch (draft.type) {
    case 'webhook':
      return { ...body, url: draft.url.trim(), secret: draft.secret };
    case 'slack':
      return { ...body, url: draft.url.trim() };
    case 'pagerduty':
      return { ...body, routingKey: draft.routingKey.trim(), ...(draft.url.trim() ? { url: draft.url.trim() } : {}) };
    case 'email':
      return {
        ...body,
        host: draft.host.trim(),
        port: Number(draft.port),
        starttls: draft.starttls,
        ...(draft.user === '' ? {} : { user: draft.user, password: draft.password }),
        from: draft.from.trim(),
        to: recipients(draft.to),
      };
  }
}

/** The field an API refusal of a channel belongs to (its sentence is shown there), if one. */
export function refusedChannelField(reason: string, type: ChannelType): ChannelField | undefined {
  switch (reason) {
    case 'bad_channel_url':
      return 'url';
    case 'address_refused':
      return type === 'email' ? 'host' : 'url';
    case 'bad_email_address':
      return 'to';
    case 'smtp_password_needs_tls':
      return 'starttls';
    default:
      return undefined;
  }
}

/** Where a channel sends to, in a few words (its secrets only as "set"). */
export function channelTarget(channel: ChannelWire): string {
  const secrets = channel.secrets.length > 0 ? ` (${channel.secrets.join(', ')} set)` : '';
  switch (channel.type) {
    case 'email':
      return `${(channel.to ?? []).join(', ')} via ${channel.host ?? ''}:${channel.port ?? ''}${
        channel.starttls ? ' with STARTTLS' : ''
      }${secrets}`;
    case 'slack':
      return `Slack incoming webhook${secrets}`;
    case 'webhook':
    case 'pagerduty':
      return `${channel.url ?? ''}${secrets}`;
  }
}

/** A delivery's last error, or the last reply when it failed without one; undefined when it went through. */
export function lastError(delivery: DeliveryWire): string | undefined {
  const last = delivery.attempts.at(-1);
  if (last === undefined || last.ok) return undefined;
  return last.error ?? (last.statusCode === null ? (last.reply ?? undefined) : `HTTP ${last.statusCode}`);
}
