import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { rawHttpExchange } from '@triad/service-kit/testing';
import type { ContentTables } from '../migrations/content-tables.js';
import { buildTestContentApp, type TestContentApp } from '../test-support/content-test-app.js';

const SECRET = 'echo-me-not';

interface RawReply {
  readonly status: number;
  readonly contentType: string;
  readonly cacheControl: string | undefined;
  readonly text: string;
}

async function rawExchange(port: number, bytes: string): Promise<RawReply> {
  const reply = await rawHttpExchange(port, bytes);
  return {
    status: reply.status,
    contentType: reply.headers.get('content-type') ?? '',
    cacheControl: reply.headers.get('cache-control'),
    text: reply.text,
  };
}

/** A POST through Node's HTTP client (the body may be refused before it is read whole). */
function post(port: number, path: string, contentType: string, body: string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': contentType } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type']),
            cacheControl: res.headers['cache-control'],
            text: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describeEachDatabase<ContentTables>('content api framework errors', (getDb) => {
  let t: TestContentApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestContentApp(getDb(), { articles: 10 });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    await t?.app.close();
  });

  const expectProblem = (reply: RawReply, status: number, code: string) => {
    expect(reply.status).toBe(status);
    expect(reply.contentType).toMatch(/^application\/problem\+json/);
    const body = JSON.parse(reply.text) as Record<string, unknown>;
    expect(body).toMatchObject({ type: `urn:triad:problem:${code}`, status, code });
    expect(typeof body.title).toBe('string');
    expect(typeof body.requestId).toBe('string');
    expect(reply.text).not.toContain(SECRET);
    expect(reply.cacheControl).toBeUndefined();
  };

  it('answers an over-long article id with a 414 problem echoing nothing, with or without a token', async () => {
    const path = `/api/articles/${SECRET}${'x'.repeat(600)}`;
    expectProblem(await rawExchange(port, `GET ${path} HTTP/1.1\r\nHost: a\r\n\r\n`), 414, 'SVC_ERR_URI_TOO_LONG');
    const authorized = `GET ${path} HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${t.token}\r\n\r\n`;
    expectProblem(await rawExchange(port, authorized), 414, 'SVC_ERR_URI_TOO_LONG');
  });

  it('answers headers too large with a 431 problem echoing nothing', async () => {
    const bytes = `GET /api/articles?q=${SECRET}${'q'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`;
    expectProblem(await rawExchange(port, bytes), 431, 'SVC_ERR_HEADERS_TOO_LARGE');
  });

  it('answers a token request body above 8192 bytes with a 413 problem and another media type with 415', async () => {
    const big = `grant_type=client_credentials&client_id=${SECRET}${'b'.repeat(9000)}`;
    expectProblem(
      await post(port, '/oauth/token', 'application/x-www-form-urlencoded', big),
      413,
      'SVC_ERR_BODY_TOO_LARGE',
    );
    expectProblem(
      await post(port, '/oauth/token', `text/${SECRET}`, 'grant_type=client_credentials'),
      415,
      'SVC_ERR_MEDIA_TYPE_UNSUPPORTED',
    );
  });
});
