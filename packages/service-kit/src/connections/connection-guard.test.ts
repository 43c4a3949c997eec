import { connect, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceApp } from '../create-service-app.js';
import { createLogger } from '../logger.js';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connection-limits.js';

const apps: FastifyInstance[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const app of apps.splice(0)) await app.close();
});

interface Started {
  readonly port: number;
  /** Every log line so far, parsed. */
  readonly lines: () => { level: number; msg: string; err?: unknown }[];
}

/** A real app listening on loopback with `limits`, a JSON echo, a slow reader and an event stream. */
async function start(limits: Partial<ConnectionLimits>): Promise<Started> {
  const written: string[] = [];
  const destination = { write: (line: string) => void written.push(line) };
  const logger = createLogger({ level: 'info', format: 'json', destination, service: 'guard-test' });
  const app = await createServiceApp({ logger, connections: limits });
  apps.push(app);
  app.post('/echo', (request) => ({ received: request.body }));
  // A route that reads its body only after a pause four times the stall timeout: the client is not stalling.
  app.register((scope, _options, done) => {
    scope.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
    scope.post('/slow-reader', async (request) => {
      await new Promise((resolve) => setTimeout(resolve, (limits.bodyStallTimeoutMs ?? 0) * 4));
      let size = 0;
      for await (const chunk of request.body as AsyncIterable<Buffer>) size += chunk.length;
      return { size };
    });
    done();
  });
  app.get('/events', (_request, reply) => {
    const events = new PassThrough();
    let sent = 0;
    const timer = setInterval(() => {
      sent += 1;
      events.write(`data: ${sent}\n\n`);
      if (sent === 10) {
        clearInterval(timer);
        events.end();
      }
    }, 100);
    return reply.type('text/event-stream').send(events);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on TCP');
  return {
    port: address.port,
    lines: () =>
      written
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as never),
  };
}

/** Opens a raw socket, writes `first`, and collects everything until the server closes it. */
function open(port: number, first = ''): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  const closed = new Promise<string>((resolve) => {
    socket.on('close', () => resolve(text));
    socket.on('error', () => {});
  });
  if (first) socket.write(first);
  return { socket, closed };
}

const connected = (socket: Socket) => new Promise<void>((resolve) => socket.once('connect', () => resolve()));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function statusOf(reply: string): number {
  return Number(reply.split('\r\n')[0]?.split(' ')[1]);
}

function bodyOf(reply: string): Record<string, unknown> {
  return JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
}

describe('guardConnections: bodies that stall', () => {
  it('answers 408 and closes the connection when a body stops arriving, logging no error', async () => {
    const server = await start({ bodyStallTimeoutMs: 300 });
    const { closed } = open(
      server.port,
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
    );
    const reply = await closed;
    expect(statusOf(reply)).toBe(408);
    expect(reply).toMatch(/content-type: application\/problem\+json/i);
    expect(bodyOf(reply)).toMatchObject({ code: 'SVC_ERR_REQUEST_TIMEOUT', status: 408 });
    await sleep(50);
    expect(server.lines().filter((line) => line.level >= 50)).toEqual([]);
    expect(server.lines().some((line) => line.level === 30 && line.msg.includes('the body stalled'))).toBe(true);
  });

  it('closes a chunked body that stalls too', async () => {
    const server = await start({ bodyStallTimeoutMs: 300 });
    const { closed } = open(
      server.port,
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n' +
        '3\r\n{"a\r\n',
    );
    expect(statusOf(await closed)).toBe(408);
  });

  it('keeps a body that arrives slowly but steadily, for longer than the stall timeout', async () => {
    const server = await start({ bodyStallTimeoutMs: 1_000 });
    const body = JSON.stringify({ text: 'x'.repeat(18) });
    const { socket, closed } = open(
      server.port,
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    // 30 pieces 100 ms apart: three times the stall timeout in all, never a pause of one.
    for (const piece of body.match(/.{1,1}/g) ?? []) {
      socket.write(piece);
      await sleep(100);
    }
    const reply = await closed;
    expect(statusOf(reply)).toBe(200);
    expect(bodyOf(reply)).toEqual({ received: { text: 'x'.repeat(18) } });
  });

  it('does not time out a client whose route reads its body late (the server is the slow side)', async () => {
    const server = await start({ bodyStallTimeoutMs: 300 });
    const size = 4 * 1024 * 1024;
    const { socket, closed } = open(
      server.port,
      'POST /slow-reader HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n' +
        `Content-Length: ${size}\r\nConnection: close\r\n\r\n`,
    );
    socket.write(Buffer.alloc(size, 1));
    const reply = await closed;
    expect(statusOf(reply)).toBe(200);
    expect(bodyOf(reply)).toEqual({ size });
  });

  it('answers 408 to request headers that never end (headersTimeoutMs)', async () => {
    const server = await start({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const { closed } = open(server.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const reply = await closed;
    expect(statusOf(reply)).toBe(408);
    expect(bodyOf(reply)).toMatchObject({ code: 'SVC_ERR_REQUEST_TIMEOUT' });
  });

  it('refuses a headers timeout longer than the request timeout', async () => {
    await expect(
      createServiceApp({ connections: { headersTimeoutMs: 2_000, requestTimeoutMs: 1_000 } }),
    ).rejects.toThrow(/TRIAD_HEADERS_TIMEOUT_MS.*TRIAD_REQUEST_TIMEOUT_MS/);
  });
});

describe('guardConnections: connections per client address', () => {
  it('refuses connections past the limit with a 503 or a close, and takes new ones once some close', async () => {
    const server = await start({ maxConnectionsPerClient: 3 });
    const held = [open(server.port), open(server.port), open(server.port)];
    await Promise.all(held.map(({ socket }) => connected(socket)));
    // Let the server count them (its 'connection' events run after the client's 'connect').
    await sleep(100);
    const extra = open(server.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const refused = await extra.closed;
    expect(refused === '' || statusOf(refused) === 503).toBe(true);
    if (refused !== '') {
      expect(bodyOf(refused)).toMatchObject({ code: 'SVC_ERR_TOO_MANY_CONNECTIONS', status: 503 });
      expect(refused).toMatch(/retry-after: 5/i);
    }
    held[0]?.socket.destroy();
    await held[0]?.closed;
    await sleep(100);
    const again = open(server.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(statusOf(await again.closed)).toBe(200);
    // One warning for the address going over, no error.
    const lines = server.lines();
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(lines.filter((line) => line.msg.startsWith('too many connections'))).toHaveLength(1);
  });

  it('holds at most the default number of connections from one address, refusing every one past it', async () => {
    const server = await start({});
    const limit = DEFAULT_CONNECTION_LIMITS.maxConnectionsPerClient;
    const all = Array.from({ length: limit + 20 }, () => open(server.port));
    let ended = 0;
    const twentyEnded = new Promise<void>((resolve) => {
      for (const { socket } of all)
        socket.once('end', () => {
          ended += 1;
          if (ended === 20) resolve();
        });
    });
    await twentyEnded;
    await sleep(200);
    expect(ended).toBe(20);
    expect(all.filter(({ socket }) => !socket.readableEnded)).toHaveLength(limit);
  });

  it('keeps a long event stream open past the stall and keep-alive timeouts', async () => {
    const server = await start({ bodyStallTimeoutMs: 200, keepAliveTimeoutMs: 200, headersTimeoutMs: 200 });
    const { closed } = open(server.port, 'GET /events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const reply = await closed;
    expect(statusOf(reply)).toBe(200);
    expect(reply).toContain('data: 10');
  });
});
