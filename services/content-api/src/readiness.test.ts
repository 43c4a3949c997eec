import { afterAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '@triad/db/testing';
import { buildContentApiApp } from './app.js';
import { createContentAuth } from './auth/content-auth.js';
import type { SharedKeyStore } from './auth/local-identity.js';
import { loadContentApiConfig } from './config.js';
import type { ContentTables } from './migrations/content-tables.js';
import { loadTestCatalog } from './test-support/content-test-app.js';

describeEachDatabase<ContentTables>('content API readiness', (getDb) => {
  let app: FastifyInstance | undefined;
  afterAll(async () => {
    await app?.close();
  });

  it('answers /healthz 503 until its token key is shared with the other instances, then 200', async () => {
    const backend = await loadTestCatalog(getDb(), 10);
    let writable = false;
    const published: string[] = [];
    // A database that refuses the key at first, as one whose write lock another process holds.
    const keyStore: SharedKeyStore = {
      publish: (key) => (writable ? Promise.resolve(void published.push(key.kid)) : Promise.reject(new Error('busy'))),
      find: () => Promise.resolve(undefined),
      list: () => Promise.resolve([]),
      prune: () => Promise.resolve(0),
    };
    const config = loadContentApiConfig({}, { demo: false, logLevel: 'silent' });
    const auth = await createContentAuth(config, { keyStore });
    app = await buildContentApiApp({ config, backend, auth, requireSharedKey: true });
    app.addHook('onClose', () => backend.close());
    await app.ready();
    const health = async () => (await app!.inject({ method: 'GET', url: '/healthz' })).statusCode;
    expect(await health()).toBe(503);
    writable = true;
    for (let i = 0; i < 200 && published.length === 0; i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(published).toHaveLength(1);
    expect(await health()).toBe(200);
  });
});
