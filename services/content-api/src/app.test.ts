import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { ProblemDocument } from '@triad/service-kit';
import { CONTENT_MEDIA_TYPE, REQUISITIONER_HEADER } from './http/media-types.js';
import type { Link } from './presenters/links.js';
import { buildTestContentApp, type TestContentApp } from './test-support/content-test-app.js';
import type { ContentTables } from './migrations/content-tables.js';

interface TokenReply {
  readonly access_token: string;
}
interface OAuthError {
  readonly error: string;
}
interface EntryReply {
  readonly _status: { readonly timeMs: number };
  readonly _schema: { readonly links: readonly Link[] };
}

describeEachDatabase<ContentTables>('content api protocol', (getDb) => {
  let t: TestContentApp;
  beforeAll(async () => {
    t = await buildTestContentApp(getDb(), { articles: 40 });
  });
  afterAll(async () => {
    await t?.app.close();
  });

  it('issues a bearer token for the configured client from a form body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials&client_id=test-client&client_secret=test-secret-123',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'content:read' });
    const api = await t.get('/api', { authorization: `Bearer ${response.json<TokenReply>().access_token}` });
    expect(api.statusCode).toBe(200);
  });

  it('accepts client credentials in an HTTP Basic header', async () => {
    const basic = Buffer.from('test-client:test-secret-123').toString('base64');
    const response = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { authorization: `Basic ${basic}` },
      payload: { grant_type: 'client_credentials' },
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses a wrong client secret with invalid_client and an unknown grant with unsupported_grant_type', async () => {
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'client_credentials', client_id: 'test-client', client_secret: 'nope-nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json<OAuthError>().error).toBe('invalid_client');
    const grant = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'password', client_id: 'test-client', client_secret: 'test-secret-123' },
    });
    expect(grant.statusCode).toBe(400);
    expect(grant.json<OAuthError>().error).toBe('unsupported_grant_type');
  });

  it('publishes the public verification key without private parts', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
    const key = response.json<{ keys: Record<string, unknown>[] }>().keys[0];
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
    expect(key?.d).toBeUndefined();
  });

  it('answers 401 problem when the Authorization header is missing or not a bearer JWT', async () => {
    for (const authorization of [undefined, 'Bearer', 'Basic abc', 'Bearer not-a-jwt', `Bearer ${t.token}x`]) {
      const response = await t.get('/api/articles', { authorization });
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(response.json()).toMatchObject({ status: 401, title: 'Unauthorized' });
    }
  });

  it('answers 406 problem for any Accept but the versioned media type, wildcards included', async () => {
    for (const accept of [
      undefined,
      '*/*',
      'application/*',
      'application/json',
      'application/vnd.vendor.content.v2+json',
      `${CONTENT_MEDIA_TYPE}, */*`,
    ]) {
      const response = await t.get('/api', { accept });
      expect(response.statusCode, String(accept)).toBe(406);
      expect(response.json()).toMatchObject({ status: 406, title: 'Not Acceptable' });
    }
  });

  it('answers with the versioned media type when Accept names it', async () => {
    const response = await t.get('/api');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(
      new RegExp(`^${CONTENT_MEDIA_TYPE.replaceAll('.', '\\.').replace('+', '\\+')}`),
    );
  });

  it('answers 400 problem when the requisitioner id is missing, too long or has other characters', async () => {
    for (const value of [undefined, '', 'a'.repeat(129), 'buyer 1', 'bü']) {
      const response = await t.get('/api', { [REQUISITIONER_HEADER]: value });
      expect(response.statusCode, String(value)).toBe(400);
      expect(response.json<ProblemDocument>().code).toBe('CONTENT_ERR_REQUISITIONER_INVALID');
    }
    expect((await t.get('/api', { [REQUISITIONER_HEADER]: 'a'.repeat(128) })).statusCode).toBe(200);
  });

  it('serves the entry point with links to every resource', async () => {
    const body = (await t.get('/api')).json<EntryReply>();
    expect(body._status.timeMs).toBeGreaterThanOrEqual(0);
    const rels = Object.fromEntries(body._schema.links.map((l) => [l.rel, l.href]));
    expect(Object.keys(rels).sort()).toEqual(['article-by-id', 'articles', 'bshops', 'business-shops', 'self']);
    // The article template names no shop, so no version; the others carry every shop's digest.
    expect(rels['article-by-id']).toMatch(/\/api\/articles\/\{articleId\}$/);
    const digest = new URL(rels.articles!).searchParams.get('hash');
    expect(digest).toMatch(/^[0-9a-f]{16}$/);
    expect(new URL(rels.self!).searchParams.get('hash')).toBe(digest);
    expect(body._schema.links.every((l) => l.method === 'GET' && l.mediaType === CONTENT_MEDIA_TYPE)).toBe(true);
  });

  it('keeps /healthz open without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
