import { afterEach, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '@triad/db/testing';
import { buildContentApiApp } from '../../app.js';
import { createContentAuth } from '../../auth/content-auth.js';
import { loadContentApiConfig, type ContentApiConfigOverrides } from '../../config.js';
import { CONTENT_MEDIA_TYPE, REQUISITIONER_HEADER } from '../../http/media-types.js';
import type { ContentTables } from '../../migrations/content-tables.js';
import { loadTestCatalog } from '../../test-support/content-test-app.js';
import { isLoopbackHost } from './index.js';

describeEachDatabase<ContentTables>('GET /oauth/demo-client', (getDb) => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  const build = async (overrides: ContentApiConfigOverrides): Promise<FastifyInstance> => {
    const backend = await loadTestCatalog(getDb(), 3);
    const config = loadContentApiConfig({}, { logLevel: 'silent', ...overrides });
    const built = await buildContentApiApp({ config, backend, auth: await createContentAuth(config) });
    app = built;
    return built;
  };
  const ask = (target: FastifyInstance, host = '127.0.0.1:8081') =>
    target.inject({ method: 'GET', url: '/oauth/demo-client', headers: { host } });

  it('hands a demo run its generated read client, which signs in and searches', async () => {
    const target = await build({ demo: true, demoArticles: 3 });
    const reply = await ask(target);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['cache-control']).toBe('no-store');
    const { clientId, clientSecret } = reply.json<{ clientId: string; clientSecret: string }>();
    const issued = await target.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
    });
    expect(issued.json<{ scope: string }>().scope).toBe('content:read');
    const search = await target.inject({
      method: 'GET',
      url: '/api/articles?limit=0',
      headers: {
        authorization: `Bearer ${issued.json<{ access_token: string }>().access_token}`,
        accept: CONTENT_MEDIA_TYPE,
        [REQUISITIONER_HEADER]: 'console',
      },
    });
    expect(search.statusCode).toBe(200);
  });

  it('answers 204 to a request naming a host that is not loopback (DNS rebinding)', async () => {
    const target = await build({ demo: true });
    expect((await ask(target, 'catalog.example.com:8081')).statusCode).toBe(204);
    expect((await ask(target, 'localhost:8081')).statusCode).toBe(200);
  });

  it.each<[string, ContentApiConfigOverrides]>([
    ['without demo data', { demo: false }],
    ['with a configured client', { demo: true, oauthClientId: 'ops', oauthClientSecret: 'configured-secret-1' }],
    ['listening on every address', { demo: true, host: '0.0.0.0' }],
  ])('hands out nothing %s (204, no body)', async (_name, overrides) => {
    const reply = await ask(await build(overrides));
    expect(reply.statusCode).toBe(204);
    expect(reply.body).toBe('');
    expect(reply.headers['cache-control']).toBe('no-store');
  });
});

it('counts only loopback names and addresses as loopback', () => {
  expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'].every(isLoopbackHost)).toBe(true);
  expect(['0.0.0.0', '::', '192.168.1.2', 'localhost.example.com', ''].some(isLoopbackHost)).toBe(false);
});
