/**
 * Builds the OpenAPI document of each service in-process (no port is opened), each on a temporary
 * SQLite database with the default configuration: exactly what its `GET /openapi.json` answers.
 * Used by `scripts/write-openapi.ts` (write and lint) and `scripts/generate.ts` (the console's
 * generated API types).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { migrateToLatest, openDatabase, type Database } from '@triad/db';
import {
  buildContentApiApp,
  CONTENT_MIGRATION_TABLE,
  contentStorageFor,
  createContentAuth,
  loadContentApiConfig,
} from '@triad/content-api-service';
import {
  buildNodeManagerApp,
  loadNodeManagerConfig,
  NODE_MANAGER_MIGRATION_TABLE,
  nodeManagerMigrations,
} from '@triad/node-manager-service';
import {
  buildTemplatesApp,
  loadTemplatesConfig,
  TEMPLATES_MIGRATION_TABLE,
  templatesMigrations,
} from '@triad/templates-service';

/** The table map of a `Database<Tables>` type (the services do not all export theirs). */
type TablesOf<D> = D extends Database<infer Tables> ? Tables : never;

/** Builds one service's app (ready, not listening) in `dir`; the returned close also closes its storage. */
type AppBuilder = (dir: string) => Promise<{ app: FastifyInstance; close: () => Promise<void> }>;

const SERVICES = {
  templates: async (dir) => {
    const database = openDatabase<TablesOf<Parameters<typeof buildTemplatesApp>[0]['database']>>({
      sqliteFile: path.join(dir, 'templates.sqlite'),
    });
    await migrateToLatest(database, { migrations: templatesMigrations, tableName: TEMPLATES_MIGRATION_TABLE });
    const config = loadTemplatesConfig({}, { demo: false, logLevel: 'silent' });
    const app = await buildTemplatesApp({ config, database });
    return { app, close: () => app.close().then(() => database.close()) };
  },
  'content-api': async (dir) => {
    const database = openDatabase<TablesOf<Parameters<typeof contentStorageFor>[0]>>({
      sqliteFile: path.join(dir, 'content.sqlite'),
    });
    const storage = contentStorageFor(database);
    await migrateToLatest(database, { migrations: storage.migrations, tableName: CONTENT_MIGRATION_TABLE });
    const config = loadContentApiConfig({}, { demo: false, logLevel: 'silent' });
    const app = await buildContentApiApp({ config, backend: storage.backend, auth: await createContentAuth(config) });
    return { app, close: () => app.close().then(() => storage.backend.close()) };
  },
  'node-manager': async (dir) => {
    const database = openDatabase<TablesOf<Parameters<typeof buildNodeManagerApp>[0]['database']>>({
      sqliteFile: path.join(dir, 'node-manager.sqlite'),
    });
    await migrateToLatest(database, { migrations: nodeManagerMigrations, tableName: NODE_MANAGER_MIGRATION_TABLE });
    const config = loadNodeManagerConfig({}, { logLevel: 'silent' });
    const { app } = await buildNodeManagerApp({ config, database });
    return { app, close: () => app.close().then(() => database.close()) };
  },
} as const satisfies Readonly<Record<string, AppBuilder>>;

/** A service that serves an OpenAPI document. */
export type ServiceName = keyof typeof SERVICES;

/** Every service, in the order the documents are built. */
export const SERVICE_NAMES: readonly ServiceName[] = ['templates', 'content-api', 'node-manager'];

/** Narrows a command-line word to a service name. */
export function isServiceName(name: string): name is ServiceName {
  return Object.hasOwn(SERVICES, name);
}

/**
 * The OpenAPI document of each named service, in the order given. The temporary databases are
 * removed before it returns, also when a build fails.
 */
export async function openApiDocuments(names: readonly ServiceName[]): Promise<Map<ServiceName, unknown>> {
  const work = await mkdtemp(path.join(tmpdir(), 'triad-openapi-'));
  const documents = new Map<ServiceName, unknown>();
  try {
    for (const name of names) {
      const dir = path.join(work, name);
      await mkdir(dir);
      const { app, close } = await SERVICES[name](dir);
      try {
        await app.ready();
        documents.set(name, app.swagger());
      } finally {
        await close();
      }
    }
    return documents;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
