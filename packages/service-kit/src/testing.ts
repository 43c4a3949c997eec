import { connect } from 'node:net';

/** A reply as read off the socket: status, headers (names lower-cased) and the body text. */
export interface RawHttpReply {
  readonly status: number;
  readonly headers: ReadonlyMap<string, string>;
  readonly text: string;
}

/**
 * Test helper: sends `bytes` as they are to `127.0.0.1:port` over a real socket, half-closes,
 * and parses what the server wrote until it closed the connection. Reaches what `inject` cannot:
 * Node's HTTP parser and Fastify's routing errors. Send `Connection: close` for ordinary requests.
 */
export function rawHttpExchange(port: number, bytes: string): Promise<RawHttpReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      const split = raw.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = raw.slice(0, split).split('\r\n');
      const headers = new Map(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as const),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, text: raw.slice(split + 4) });
    });
    socket.end(bytes);
  });
}

export {
  startServiceProcess,
  startSourceProcess,
  waitForProcess,
  type ServiceProcess,
  type SourceProcess,
  type StartSourceProcessOptions,
} from './testing/source-process.js';
