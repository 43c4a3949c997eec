import http from 'node:http';
import https from 'node:https';
import type { NotifyAddressGuard } from './notify-address-guard.js';
import { TargetRefusedError } from './notify-address-guard.js';

/** What a receiver answered. */
export interface PostReply {
  readonly statusCode: number;
  /** The start of the reply body (at most `REPLY_CHARS` characters). */
  readonly body: string;
}

/** How much of a reply body is kept with an attempt. */
export const REPLY_CHARS = 500;

/**
 * POSTs a JSON body to `url` through the notification address policy: the host is checked (an IP
 * literal here, a name at connection time by the guard's `lookup`), redirects are not followed,
 * and the whole exchange ends after `timeoutMs`.
 */
export async function postJson(
  guard: NotifyAddressGuard,
  url: string,
  body: string,
  headers: Readonly<Record<string, string>>,
  timeoutMs: number,
): Promise<PostReply> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const port = target.port === '' ? (secure ? 443 : 80) : Number(target.port);
  const refusal = guard.checkHost(target.hostname, port);
  if (refusal) throw new TargetRefusedError(refusal);
  const request = secure ? https.request : http.request;
  return new Promise<PostReply>((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'POST',
        agent: false,
        lookup: guard.lookup(port),
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'triad-node-manager',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < REPLY_CHARS) text += chunk;
        });
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, body: text.slice(0, REPLY_CHARS) }));
        res.on('error', reject);
      },
    );
    req.on('error', (error) =>
      reject(
        error.name === 'AbortError' || error.name === 'TimeoutError'
          ? new Error(`no reply within ${timeoutMs} ms`)
          : error,
      ),
    );
    req.end(body);
  });
}
