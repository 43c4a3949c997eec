import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp } from '../create-service-app.js';
import { rawHttpExchange, type RawHttpReply } from '../testing.js';

interface Parsed extends RawHttpReply {
  readonly body: Record<string, unknown>;
}

async function exchange(port: number, bytes: string): Promise<Parsed> {
  const reply = await rawHttpExchange(port, bytes);
  return { ...reply, body: JSON.parse(reply.text) as Record<string, unknown> };
}

const SECRET = 'echo-me-not';

describe('framework errors on a real socket', () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    app = await createServiceApp();
    app.get('/items/:id', () => ({ ok: true }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    await app.close();
  });

  const expectProblem = (reply: Parsed, status: number, code: string) => {
    expect(reply.status).toBe(status);
    expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(reply.body).toMatchObject({ type: `urn:triad:problem:${code}`, status, code });
    expect(reply.body.instance).toBeUndefined();
    expect(reply.body.requestId).toBe(reply.headers.get('x-request-id'));
    expect(reply.text).not.toContain(SECRET);
  };

  it('answers a path parameter above the limit with a 414 problem that does not echo the path', async () => {
    const reply = await exchange(port, `GET /items/${SECRET}${'x'.repeat(600)} HTTP/1.1\r\nHost: a\r\n\r\n`);
    expectProblem(reply, 414, 'SVC_ERR_URI_TOO_LONG');
  });

  it('answers headers above the parser limit with a 431 problem that does not echo them', async () => {
    const header = `GET /items/1 HTTP/1.1\r\nHost: a\r\nX-Big: ${SECRET}${'y'.repeat(20_000)}\r\n\r\n`;
    expectProblem(await exchange(port, header), 431, 'SVC_ERR_HEADERS_TOO_LARGE');
    const longUrl = `GET /items/1?q=${SECRET}${'z'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`;
    expectProblem(await exchange(port, longUrl), 431, 'SVC_ERR_HEADERS_TOO_LARGE');
  });

  it('answers a request that is not HTTP with a 400 problem', async () => {
    expectProblem(await exchange(port, `${SECRET} nonsense\r\n\r\n`), 400, 'SVC_ERR_BAD_REQUEST');
  });

  it('answers a path that does not decode with a 400 problem that does not echo it', async () => {
    const reply = await exchange(port, `GET /items/${SECRET}%E0%A4%A HTTP/1.1\r\nHost: a\r\n\r\n`);
    expectProblem(reply, 400, 'SVC_ERR_BAD_REQUEST');
  });

  it('still answers ordinary requests', async () => {
    const reply = await exchange(port, 'GET /items/1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ok: true });
  });
});
