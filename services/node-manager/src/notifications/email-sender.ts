import { isIP } from 'node:net';
import { createTransport } from 'nodemailer';
import type { NotifyAddressGuard } from './notify-address-guard.js';

/** An e-mail to send, and how to reach the server. */
export interface EmailDelivery {
  readonly host: string;
  readonly port: number;
  /** STARTTLS required (`requireTLS`); without it the mail goes in the clear and no password is sent. */
  readonly starttls: boolean;
  readonly user: string | null;
  readonly password: string | undefined;
  /** PEM certificates trusted besides the system's. */
  readonly ca: string | null;
  readonly from: string;
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
}

/** A failure with the SMTP server's reply, when there was one. */
export class SmtpError extends Error {
  override readonly name = 'SmtpError';
  readonly reply: string | null;
  constructor(message: string, reply: string | null) {
    super(message);
    this.reply = reply;
  }
}

/**
 * Sends one e-mail over SMTP with nodemailer: the host is resolved and checked by the
 * notification address policy and the connection goes to that address (the certificate is still
 * checked against the host's name); the whole exchange ends after `timeoutMs`. Resolves to the
 * server's final reply (e.g. `250 OK`).
 */
export async function sendEmail(guard: NotifyAddressGuard, mail: EmailDelivery, timeoutMs: number): Promise<string> {
  const [address] = await guard.resolve(mail.host, mail.port);
  const transport = createTransport({
    host: address!.address,
    port: mail.port,
    secure: false,
    requireTLS: mail.starttls,
    ignoreTLS: !mail.starttls,
    ...(mail.user !== null && mail.password !== undefined ? { auth: { user: mail.user, pass: mail.password } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    disableFileAccess: true,
    disableUrlAccess: true,
    tls: {
      minVersion: 'TLSv1.2',
      ...(isIP(mail.host) === 0 ? { servername: mail.host } : {}),
      ...(mail.ca !== null ? { ca: mail.ca } : {}),
    },
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const sent = transport.sendMail({ from: mail.from, to: [...mail.to], subject: mail.subject, text: mail.text });
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SmtpError(`no reply within ${timeoutMs} ms`, null)), timeoutMs);
    });
    const info = await Promise.race([sent, expired]);
    return String(info.response);
  } catch (error) {
    if (error instanceof SmtpError) throw error;
    const reply = typeof error === 'object' && error !== null && 'response' in error ? String(error.response) : null;
    throw new SmtpError(error instanceof Error ? error.message : String(error), reply);
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}
