import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { migrateToLatest, type Database } from '@triad/db';
import { buildContentApiApp } from '../app.js';
import { createContentAuth, type ContentAuth } from '../auth/content-auth.js';
import { loadContentApiConfig, type ContentApiConfigOverrides } from '../config.js';
import { generateCatalog } from '../demo/generate-catalog.js';
import { CONTENT_MEDIA_TYPE, REQUISITIONER_HEADER } from '../http/media-types.js';
import { contentStorageFor } from '../content-api-core.js';
import { CONTENT_MIGRATION_TABLE } from '../migrations/index.js';
import type { ContentTables } from '../migrations/content-tables.js';
import { ImportRunRepository } from '../repositories/import-run-repository.js';
import type { SearchBackend } from '../search/search-backend.js';

/** Seed of every test catalog. */
export const TEST_SEED = 7;

/** Migrates (idempotent) and loads a generated catalog of `articles` articles; returns the backend. */
export async function loadTestCatalog(
  database: Database<ContentTables>,
  articles = 200,
  hash = 'test-v1',
): Promise<SearchBackend> {
  const storage = contentStorageFor(database);
  await migrateToLatest(database, { migrations: storage.migrations, tableName: CONTENT_MIGRATION_TABLE });
  const catalog = generateCatalog({ articles, seed: TEST_SEED });
  await storage.backend.replaceCatalog({ shops: catalog.shops, articles: catalog.articles(), hash });
  return storage.backend;
}

/** A test app plus a valid token obtained from its own `/oauth/token`. */
export interface TestContentApp {
  readonly app: FastifyInstance;
  readonly backend: SearchBackend;
  /** The record of imports the app lists. */
  readonly importRuns: ImportRunRepository;
  readonly auth: ContentAuth;
  readonly token: string;
  /** GET with valid token, Accept and requisitioner headers; `headers` override or remove (undefined) them. */
  get(url: string, headers?: Readonly<Record<string, string | undefined>>): Promise<LightMyRequestResponse>;
}

/**
 * Loads the catalog and builds the app with the built-in identity (client `test-client`/`test-secret-123`); closing
 * the app closes the backend.
 */
export async function buildTestContentApp(
  database: Database<ContentTables>,
  options: { articles?: number; config?: ContentApiConfigOverrides } = {},
): Promise<TestContentApp> {
  const backend = await loadTestCatalog(database, options.articles ?? 200);
  const importRuns = new ImportRunRepository(database);
  const config = loadContentApiConfig(
    {},
    {
      demo: false,
      logLevel: 'silent',
      oauthClientId: 'test-client',
      oauthClientSecret: 'test-secret-123',
      ...options.config,
    },
  );
  const auth = await createContentAuth(config);
  const app = await buildContentApiApp({ config, backend, importRuns, auth });
  app.addHook('onClose', () => backend.close());
  await app.ready();
  const issued = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: { grant_type: 'client_credentials', client_id: 'test-client', client_secret: 'test-secret-123' },
  });
  const token = issued.json<{ access_token: string }>().access_token;
  return {
    app,
    backend,
    importRuns,
    auth,
    token,
    get(url, headers = {}) {
      const merged: Record<string, string | undefined> = {
        authorization: `Bearer ${token}`,
        accept: CONTENT_MEDIA_TYPE,
        [REQUISITIONER_HEADER]: 'buyer-42',
        ...headers,
      };
      const defined = Object.fromEntries(
        Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined),
      );
      return app.inject({ method: 'GET', url, headers: defined });
    },
  };
}

/** The admin client of `buildTestAdminApp`. */
export const TEST_ADMIN = Object.freeze({ id: 'test-admin', secret: 'test-admin-secret-456' });

/** A test app with the admin client `TEST_ADMIN`, and a token its `/oauth/token` issued to it. */
export interface TestAdminApp extends TestContentApp {
  readonly adminToken: string;
  /** The scope the admin token was issued with. */
  readonly adminScope: string;
}

/** `buildTestContentApp` with the admin client `TEST_ADMIN` configured and signed in. */
export async function buildTestAdminApp(database: Database<ContentTables>, articles: number): Promise<TestAdminApp> {
  const t = await buildTestContentApp(database, {
    articles,
    config: { adminClientId: TEST_ADMIN.id, adminClientSecret: TEST_ADMIN.secret },
  });
  const issued = await t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: { grant_type: 'client_credentials', client_id: TEST_ADMIN.id, client_secret: TEST_ADMIN.secret },
  });
  const { access_token: adminToken, scope: adminScope } = issued.json<{ access_token: string; scope: string }>();
  return { ...t, adminToken, adminScope };
}
