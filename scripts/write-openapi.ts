/**
 * Writes the OpenAPI document of every service, built in-process (no port is opened) on a
 * temporary SQLite database, and optionally lints them with Redocly CLI.
 *
 *   node --conditions=source --import tsx scripts/write-openapi.ts [--out DIR] [--lint] [SERVICE ...]
 *
 * SERVICE: templates, content-api, node-manager (default all three). `--out`: where to write
 * `<service>.json` (default a temporary folder, removed after `--lint`). `--lint`: runs
 * `redocly lint --config redocly.yaml` on the written documents and exits with its status.
 * Each document is what `GET /openapi.json` answers with the default configuration.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
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

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The table map of a `Database<Tables>` type (the services do not all export theirs). */
type TablesOf<D> = D extends Database<infer Tables> ? Tables : never;

/** Builds one service's app (ready, not listening) in `dir`; the returned close also closes its storage. */
type AppBuilder = (dir: string) => Promise<{ app: FastifyInstance; close: () => Promise<void> }>;

const SERVICES: Readonly<Record<string, AppBuilder>> = {
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
};

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: { out: { type: 'string' }, lint: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  const names = positionals.length > 0 ? positionals : Object.keys(SERVICES);
  const unknown = names.filter((name) => !(name in SERVICES));
  if (unknown.length > 0) {
    process.stderr.write(`unknown service ${unknown.join(', ')}; known: ${Object.keys(SERVICES).join(', ')}\n`);
    return 2;
  }
  const work = await mkdtemp(path.join(tmpdir(), 'triad-openapi-'));
  const out = values.out === undefined ? path.join(work, 'openapi') : path.resolve(values.out);
  try {
    await mkdir(out, { recursive: true });
    const files: string[] = [];
    for (const name of names) {
      const build = SERVICES[name];
      if (!build) continue;
      const dir = path.join(work, name);
      await mkdir(dir);
      const { app, close } = await build(dir);
      try {
        await app.ready();
        const file = path.join(out, `${name}.json`);
        await writeFile(file, `${JSON.stringify(app.swagger(), null, 2)}\n`);
        files.push(file);
      } finally {
        await close();
      }
    }
    if (!values.lint) {
      process.stdout.write(`${files.join('\n')}\n`);
      return 0;
    }
    return lint(files);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Runs Redocly CLI's linter (no telemetry, no update check) and returns its exit status. */
function lint(files: readonly string[]): number {
  const redocly = path.join(ROOT, 'node_modules', '.bin', 'redocly');
  const result = spawnSync(redocly, ['lint', '--config', path.join(ROOT, 'redocly.yaml'), ...files], {
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

process.exitCode = await main();
