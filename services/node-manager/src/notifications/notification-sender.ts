import type { ChannelSecrets, ChannelTarget, NotificationRecord } from '../model/notification-records.js';
import { sendEmail, SmtpError } from './email-sender.js';
import { postJson } from './http-poster.js';
import {
  DELIVERY_HEADER,
  emailContent,
  pagerDutyBody,
  signature,
  SIGNATURE_HEADER,
  slackBody,
  TIMESTAMP_HEADER,
  webhookBody,
} from './notification-bodies.js';
import type { NotifyAddressGuard } from './notify-address-guard.js';

/** How one attempt went; `error` never contains a channel secret. */
export interface AttemptResult {
  readonly ok: boolean;
  readonly statusCode: number | null;
  readonly reply: string | null;
  readonly error: string | null;
}

/** Sends one notification to its channel, once: webhook, Slack, PagerDuty or e-mail. */
export class NotificationSender {
  readonly #guard: NotifyAddressGuard;
  readonly #timeoutMs: number;
  readonly #now: () => number;

  constructor(guard: NotifyAddressGuard, timeoutMs: number, now: () => number = Date.now) {
    this.#guard = guard;
    this.#timeoutMs = timeoutMs;
    this.#now = now;
  }

  async send(target: ChannelTarget, notification: NotificationRecord): Promise<AttemptResult> {
    try {
      return await this.#send(target, notification);
    } catch (error) {
      const reply = error instanceof SmtpError ? error.reply : null;
      const message = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        statusCode: null,
        reply: reply === null ? null : redact(reply, target.secrets),
        error: redact(message, target.secrets),
      };
    }
  }

  async #send({ channel, secrets }: ChannelTarget, notification: NotificationRecord): Promise<AttemptResult> {
    const { alarm } = notification;
    const settings = channel.settings;
    switch (settings.type) {
      case 'webhook': {
        const now = this.#now();
        const body = webhookBody(notification.id, alarm, now);
        const headers = {
          [SIGNATURE_HEADER]: signature(secrets.secret ?? '', body),
          [TIMESTAMP_HEADER]: String(Math.floor(now / 1000)),
          [DELIVERY_HEADER]: notification.id,
        };
        return this.#post(settings.url, body, headers, secrets);
      }
      case 'slack':
        return this.#post(secrets.url ?? '', slackBody(alarm), {}, secrets);
      case 'pagerduty':
        return this.#post(settings.url, pagerDutyBody(secrets.routingKey ?? '', alarm), {}, secrets);
      case 'email': {
        const content = emailContent(alarm);
        const reply = await sendEmail(
          this.#guard,
          {
            host: settings.host,
            port: settings.port,
            starttls: settings.starttls,
            user: settings.user,
            password: secrets.password,
            ca: settings.ca,
            from: settings.from,
            to: settings.to,
            ...content,
          },
          this.#timeoutMs,
        );
        return { ok: true, statusCode: null, reply: redact(reply, secrets), error: null };
      }
    }
  }

  async #post(
    url: string,
    body: string,
    headers: Readonly<Record<string, string>>,
    secrets: ChannelSecrets,
  ): Promise<AttemptResult> {
    const reply = await postJson(this.#guard, url, body, headers, this.#timeoutMs);
    const ok = reply.statusCode >= 200 && reply.statusCode < 300;
    return {
      ok,
      statusCode: reply.statusCode,
      reply: redact(reply.body, secrets),
      error: ok ? null : `the receiver answered HTTP ${reply.statusCode}`,
    };
  }
}

/** `text` with every channel secret (and a Slack URL's path) replaced by `***`. */
export function redact(text: string, secrets: ChannelSecrets): string {
  let result = text;
  const values = Object.values(secrets).filter((value): value is string => typeof value === 'string' && value !== '');
  if (secrets.url) values.push(new URL(secrets.url).pathname);
  for (const value of values.filter((v) => v.length >= 4)) result = result.split(value).join('***');
  return result;
}
