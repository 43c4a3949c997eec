import { nmError } from '../errors.js';
import {
  PAGERDUTY_EVENTS_URL,
  type ChannelSecrets,
  type ChannelSettings,
  type ChannelType,
} from '../model/notification-records.js';
import type { NotifyAddressGuard } from './notify-address-guard.js';

/** The body of `POST /api/notifications/channels`, as the route schema lets it through. */
export interface ChannelInput {
  readonly type: ChannelType;
  readonly name?: string;
  readonly url?: string;
  readonly secret?: string;
  readonly routingKey?: string;
  readonly host?: string;
  readonly port?: number;
  readonly starttls?: boolean;
  readonly user?: string;
  readonly password?: string;
  readonly from?: string;
  readonly to?: readonly string[];
  readonly ca?: string;
}

/** The fields each type takes; `type` and `name` go with all. */
const FIELDS: Record<ChannelType, readonly (keyof ChannelInput)[]> = {
  webhook: ['url', 'secret'],
  slack: ['url'],
  pagerduty: ['routingKey', 'url'],
  email: ['host', 'port', 'starttls', 'user', 'password', 'from', 'to', 'ca'],
};
const REQUIRED: Record<ChannelType, readonly (keyof ChannelInput)[]> = {
  webhook: ['url', 'secret'],
  slack: ['url'],
  pagerduty: ['routingKey'],
  email: ['host', 'port', 'from', 'to'],
};

/** A plain mailbox: no display name, no quoting, no list. */
const MAILBOX =
  /^[^\s@<>",;()[\]\\]+@[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

/**
 * Checks a channel body beyond its JSON schema and splits it into what is kept in the clear and
 * what is sealed. Hosts named by an address are checked against the notification address policy
 * now; names are checked, with every address they resolve to, at each delivery.
 * @throws NM_ERR_BAD_CHANNEL, NM_ERR_BAD_CHANNEL_URL, NM_ERR_BAD_EMAIL_ADDRESS,
 *   NM_ERR_SMTP_PASSWORD_NEEDS_TLS, NM_ERR_ADDRESS_REFUSED
 */
export function parseChannelInput(
  input: ChannelInput,
  guard: NotifyAddressGuard,
): { name: string; settings: ChannelSettings; secrets: ChannelSecrets } {
  const allowed = new Set<string>(['type', 'name', ...FIELDS[input.type]]);
  const extra = Object.keys(input).filter((key) => !allowed.has(key));
  if (extra.length > 0) throw nmError('NM_ERR_BAD_CHANNEL', `a ${input.type} channel takes no ${extra.join(', ')}`);
  const missing = REQUIRED[input.type].filter((key) => input[key] === undefined);
  if (missing.length > 0) throw nmError('NM_ERR_BAD_CHANNEL', `a ${input.type} channel needs ${missing.join(', ')}`);
  const name = input.name ?? input.type;
  switch (input.type) {
    case 'webhook': {
      const url = checkedUrl(input.url!, guard);
      return { name, settings: { type: 'webhook', url }, secrets: { secret: input.secret! } };
    }
    case 'slack':
      return { name, settings: { type: 'slack' }, secrets: { url: checkedUrl(input.url!, guard) } };
    case 'pagerduty': {
      const url = checkedUrl(input.url ?? PAGERDUTY_EVENTS_URL, guard);
      return { name, settings: { type: 'pagerduty', url }, secrets: { routingKey: input.routingKey! } };
    }
    case 'email': {
      const starttls = input.starttls ?? true;
      if ((input.user === undefined) !== (input.password === undefined))
        throw nmError('NM_ERR_BAD_CHANNEL', 'an email channel takes user and password together');
      if (input.password !== undefined && !starttls) throw nmError('NM_ERR_SMTP_PASSWORD_NEEDS_TLS');
      for (const address of [input.from!, ...input.to!])
        if (!MAILBOX.test(address)) throw nmError('NM_ERR_BAD_EMAIL_ADDRESS', address);
      const refusal = guard.checkHost(input.host!, input.port!);
      if (refusal) throw nmError('NM_ERR_ADDRESS_REFUSED', refusal.message);
      return {
        name,
        settings: {
          type: 'email',
          host: input.host!,
          port: input.port!,
          starttls,
          user: input.user ?? null,
          from: input.from!,
          to: [...new Set(input.to)],
          ca: input.ca ?? null,
        },
        secrets: input.password === undefined ? {} : { password: input.password },
      };
    }
  }
}

/** `text` as a URL a channel may post to. The detail never repeats the URL (a Slack URL is a secret). */
function checkedUrl(text: string, guard: NotifyAddressGuard): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw nmError('NM_ERR_BAD_CHANNEL_URL', 'not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw nmError('NM_ERR_BAD_CHANNEL_URL', `scheme ${url.protocol} is not http or https`);
  if (url.username !== '' || url.password !== '') throw nmError('NM_ERR_BAD_CHANNEL_URL', 'user info in the URL');
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  const refusal = guard.checkHost(url.hostname, port);
  if (refusal) throw nmError('NM_ERR_ADDRESS_REFUSED', refusal.message);
  return url.href;
}
