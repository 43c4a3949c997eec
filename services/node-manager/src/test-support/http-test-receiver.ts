/**
 * A local HTTP receiver for notification tests: records every request and answers as the test
 * says (a status, after an optional delay), on 127.0.0.1 and a port the kernel picks.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** When it arrived, ms since the epoch. */
  readonly at: number;
}

/** How to answer a request: its status and how long to wait first. */
export interface ReceiverAnswer {
  readonly status: number;
  readonly delayMs?: number;
  /** The reply body; default `status <status>`. */
  readonly body?: string;
}

export interface HttpTestReceiver {
  readonly port: number;
  /** `http://127.0.0.1:<port><path>` */
  url(path: string): string;
  readonly requests: ReceivedRequest[];
  /** Sets how the next requests are answered (default: 200 at once). */
  answer(next: (request: ReceivedRequest, index: number) => ReceiverAnswer): void;
  close(): Promise<void>;
}

export async function startHttpReceiver(): Promise<HttpTestReceiver> {
  const requests: ReceivedRequest[] = [];
  let answer: (request: ReceivedRequest, index: number) => ReceiverAnswer = () => ({ status: 200 });
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const request = { path: req.url ?? '', headers: req.headers, body, at: Date.now() };
      requests.push(request);
      const { status, delayMs = 0, body: text = `status ${status}` } = answer(request, requests.length - 1);
      const timer = setTimeout(() => res.writeHead(status, { 'content-type': 'text/plain' }).end(text), delayMs);
      res.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests,
    answer: (next) => (answer = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
