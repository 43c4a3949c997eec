import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '@triad/db';
import { describeWithPostgresBinaries, startReplicatedPostgres, type ReplicatedPostgres } from '@triad/db/testing';
import type { FastifyInstance } from 'fastify';
import { buildContentApiApp } from './app.js';
import { createContentAuth } from './auth/content-auth.js';
import { loadContentApiConfig } from './config.js';
import { openContentApiCore, type ContentApiCore } from './content-api-core.js';
import { generateCatalog } from './demo/generate-catalog.js';
import { CONTENT_MEDIA_TYPE, REQUISITIONER_HEADER } from './http/media-types.js';
import { versionOfShops } from './search/shop-versions.js';
import { TEST_SEED } from './test-support/content-test-app.js';

const catalog = generateCatalog({ articles: 60, seed: TEST_SEED });
const articles = [...catalog.articles()];
const labtools = catalog.shops.find((s) => s.id === 'labtools')!;
const labArticles = articles.filter((a) => a.shopId === 'labtools');

describeWithPostgresBinaries('content API reading a hot standby (DATABASE_READ_URL)', () => {
  let servers: ReplicatedPostgres;
  let standbyAdmin: Database;
  let dir: string;
  let store: ContentApiCore;
  let app: FastifyInstance;
  let token: string;

  const get = (url: string) =>
    app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${token}`, accept: CONTENT_MEDIA_TYPE, [REQUISITIONER_HEADER]: 'buyer-1' },
    });
  const total = async () => (await store.backend.search(everything)).total;
  const everything = { words: [], shopIds: [], sort: [], limit: 0, offset: 0, facets: [] };
  /** Stops (true) or resumes the standby's replay of the primary's changes. */
  const pauseReplay = async (paused: boolean) => {
    if (paused) await sql`select pg_wal_replay_pause()`.execute(standbyAdmin.db);
    else await sql`select pg_wal_replay_resume()`.execute(standbyAdmin.db);
  };
  /** Replaces labtools with its first `n` articles under `hash`, on the primary. */
  const importLabtools = (n: number, hash: string) =>
    store.backend.replaceShopCatalog({ shop: labtools, articles: labArticles.slice(0, n), hash });

  beforeAll(async () => {
    servers = await startReplicatedPostgres();
    standbyAdmin = openDatabase({ url: servers.standbyUrl, maxConnections: 1 });
    dir = await mkdtemp(path.join(os.tmpdir(), 'content-replicas-'));
    store = await openContentApiCore({
      databaseUrl: servers.primaryUrl,
      databaseReadUrls: [servers.standbyUrl],
      dataDir: dir,
    });
    await store.backend.replaceCatalog({ shops: catalog.shops, articles, hash: 'v1' });
    await servers.waitForReplay();
    const config = loadContentApiConfig(
      {},
      { demo: false, logLevel: 'silent', oauthClientId: 'replica-client', oauthClientSecret: 'replica-secret-1' },
    );
    app = await buildContentApiApp({ config, backend: store.backend, auth: await createContentAuth(config) });
    await app.ready();
    const issued = await app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'client_credentials', client_id: 'replica-client', client_secret: 'replica-secret-1' },
    });
    token = issued.json<{ access_token: string }>().access_token;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await store?.close();
    await standbyAdmin?.close();
    await servers?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('searches the standby: an import on the primary shows once the standby has replayed it', async () => {
    expect(await total()).toBe(articles.length);
    await pauseReplay(true);
    await importLabtools(3, 'v2');
    // Read from the standby, which has not replayed the import: the old catalog, whole.
    expect(await total()).toBe(articles.length);
    expect((await store.backend.primary!.search(everything)).total).toBe(articles.length - labArticles.length + 3);
    await pauseReplay(false);
    await servers.waitForReplay();
    expect(await total()).toBe(articles.length - labArticles.length + 3);
    const reply = await get('/api/articles?limit=100&businessShopId=labtools');
    expect(reply.statusCode).toBe(200);
    expect(reply.json<{ total: number }>().total).toBe(3);
  });

  it('answers a link to a version the standby has not replayed yet from the primary', async () => {
    await pauseReplay(true);
    try {
      await importLabtools(5, 'v3');
      const version = versionOfShops(await store.backend.primary!.shopVersions(), ['labtools']);
      expect(version).toBe('v3');
      const linked = await get(`/api/articles?limit=100&businessShopId=labtools&hash=${version}`);
      expect(linked.statusCode).toBe(200);
      expect(linked.json<{ total: number }>().total).toBe(5);
      // Without the link the standby answers, with what it has replayed.
      const plain = await get('/api/articles?limit=100&businessShopId=labtools');
      expect(plain.json<{ total: number }>().total).toBe(3);
      // A version no server knows is still refused.
      expect((await get('/api/articles?businessShopId=labtools&hash=nowhere')).statusCode).toBe(400);
    } finally {
      await pauseReplay(false);
    }
    await servers.waitForReplay();
    expect((await get('/api/articles?limit=100&businessShopId=labtools')).json<{ total: number }>().total).toBe(5);
  });

  it('keeps answering while the standby restarts, then reads it again', async () => {
    await servers.stopStandby();
    await importLabtools(7, 'v4');
    // The standby is down: searches fall back to the primary, with its catalog.
    const during = await get('/api/articles?limit=100&businessShopId=labtools');
    expect(during.statusCode).toBe(200);
    expect(during.json<{ total: number }>().total).toBe(7);
    await servers.startStandby();
    await servers.waitForReplay();
    await pauseReplay(true);
    try {
      await importLabtools(2, 'v5');
      // Once the standby is back in rotation, searches show what it replayed (7), not the primary's 2.
      await expect
        .poll(async () => (await store.backend.search({ ...everything, shopIds: ['labtools'] })).total, {
          timeout: 15_000,
          interval: 250,
        })
        .toBe(7);
    } finally {
      await pauseReplay(false);
    }
    await servers.waitForReplay();
    expect((await store.backend.search({ ...everything, shopIds: ['labtools'] })).total).toBe(2);
  }, 60_000);
});
