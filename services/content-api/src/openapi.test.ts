import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@triad/db';
import { checkOpenApiCoverage, createOpenApiReplyCheck, type ReplyLike } from '@triad/service-kit';
import { buildTestContentApp, type TestContentApp } from './test-support/content-test-app.js';

interface Operation {
  readonly security?: readonly unknown[];
  readonly responses: Readonly<
    Record<
      string,
      { readonly headers?: Readonly<Record<string, unknown>>; readonly content?: Readonly<Record<string, unknown>> }
    >
  >;
}
interface Document {
  readonly servers: readonly { readonly url: string }[];
  readonly components: { readonly securitySchemes?: Readonly<Record<string, unknown>> };
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>;
}

describe('content API OpenAPI document', () => {
  let t: TestContentApp;
  let document: Document;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'triad-content-openapi-'));
    t = await buildTestContentApp(openDatabase({ sqliteFile: path.join(dir, 'content.sqlite') }), {
      articles: 5,
      config: { publicUrl: 'https://content.example.test' },
    });
    const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    document = response.json<Document>();
  });
  afterAll(async () => {
    await t?.app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('documents every registered route and nothing else, each with operationId, summary and responses', async () => {
    expect(await checkOpenApiCoverage(t.app)).toEqual({
      undocumented: [],
      unregistered: [],
      incomplete: [],
      trailingSlashes: [],
      noClientErrors: [],
    });
  });

  it('serves Swagger UI at /docs', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(/swagger/i);
  });

  it('lists the public URL as a server and bearer JWT as the default security', () => {
    expect(document.servers.map((s) => s.url)).toEqual(['https://content.example.test', '/']);
    expect(document.components.securitySchemes).toHaveProperty('bearer');
  });

  it('states 401, 403 and 406 problems on every /api operation, and 404 on single resources', () => {
    const apiOperations = Object.entries(document.paths).filter(([path]) => path.startsWith('/api'));
    expect(apiOperations.length).toBe(10);
    for (const [path, item] of apiOperations) {
      const responses = item.get?.responses ?? {};
      for (const status of ['400', '401', '403', '406']) {
        expect(responses[status]?.content, `${path} ${status}`).toHaveProperty(['application/problem+json']);
      }
      expect(responses['200']?.content, path).toHaveProperty(['application/vnd.vendor.content.v1+json']);
      if (path.includes('{')) expect(responses['404'], path).toBeDefined();
      expect(responses['401']?.headers, path).toHaveProperty(['WWW-Authenticate']);
      if (path !== '/api') expect(responses['200']?.headers, path).toHaveProperty(['Cache-Control']);
    }
  });

  it('describes the replies the server really sends, successes and errors', async () => {
    const check = createOpenApiReplyCheck(document);
    const { shops } = await t.backend.listShops(1, 0);
    const shopId = shops[0]?.id ?? 'none';
    const page = (await t.get('/api/articles?limit=1')).json<{ members: { article: { id: string } }[] }>();
    const articleId = page.members[0]?.article.id ?? 'none';
    const cases: [string, ReplyLike][] = [
      ['/api', await t.get('/api')],
      ['/api/articles', await t.get('/api/articles?q=a&limit=5&sort=-price&currency=EUR')],
      ['/api/articles', await t.get('/api/articles?limit=5000')],
      ['/api/articles', await t.get('/api/articles', { authorization: undefined })],
      ['/api/articles', await t.get('/api/articles', { accept: '*/*' })],
      ['/api/articles/{articleId}', await t.get(`/api/articles/${articleId}`)],
      ['/api/articles/{articleId}', await t.get('/api/articles/nope')],
      ['/api/business-shops', await t.get('/api/business-shops?limit=2')],
      ['/api/bshops', await t.get('/api/bshops?offset=-1')],
      ['/api/business-shops/{shopId}', await t.get(`/api/business-shops/${shopId}`)],
      ['/api/business-shops/{shopId}', await t.get('/api/business-shops/nope')],
      ['/api/suggest', await t.get(`/api/suggest?q=ab&businessShopId=${shopId}`)],
      ['/api/suggest', await t.get('/api/suggest?q=ab&businessShopId=nope')],
      ['/api/suggest', await t.get(`/api/suggest?businessShopId=${shopId}&limit=50`)],
    ];
    for (const sub of ['return-policy', 'shipping-costs', 'minimum-order-value']) {
      cases.push([`/api/business-shops/{shopId}/${sub}`, await t.get(`/api/business-shops/${shopId}/${sub}`)]);
    }
    const token = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'client_credentials', client_id: 'test-client', client_secret: 'test-secret-123' },
    });
    const refused = await t.app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'password' } });
    const responses: [string, string, ReplyLike][] = [
      ...cases.map(([path, reply]): [string, string, ReplyLike] => ['GET', path, reply]),
      ['POST', '/oauth/token', token],
      ['POST', '/oauth/token', refused],
      ['GET', '/.well-known/jwks.json', await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })],
      ['GET', '/healthz', await t.app.inject({ method: 'GET', url: '/healthz' })],
      ['GET', '/metrics', await t.app.inject({ method: 'GET', url: '/metrics' })],
    ];
    const statuses = new Set(responses.map(([, , reply]) => reply.statusCode));
    expect([...statuses].sort()).toEqual([200, 400, 401, 404, 406]);
    const problems = responses.flatMap(([method, path, reply]) => check(method, path, reply));
    expect(problems).toEqual([]);
  });

  it('marks the identity endpoints, /healthz and /metrics public', () => {
    for (const [path, method] of [
      ['/oauth/token', 'post'],
      ['/.well-known/jwks.json', 'get'],
      ['/healthz', 'get'],
      ['/metrics', 'get'],
    ] as const) {
      expect(document.paths[path]?.[method]?.security, path).toEqual([]);
    }
  });
});
