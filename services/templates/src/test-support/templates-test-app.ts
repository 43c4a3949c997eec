import type { FastifyInstance } from 'fastify';
import { migrateToLatest, type Database } from '@triad/db';
import type { SecretCipher } from '@triad/service-kit';
import { buildTemplatesApp } from '../app.js';
import { loadTemplatesConfig, type TemplatesConfigOverrides } from '../config.js';
import { TEMPLATES_MIGRATION_TABLE, templatesMigrations } from '../migrations/index.js';
import type { TemplatesDatabase } from '../repositories/templates-tables.js';

/** Migrates the database (idempotent) and builds the app on it with test settings. */
export async function buildTestApp(
  database: Database<TemplatesDatabase>,
  overrides: TemplatesConfigOverrides = {},
  options: { readonly cipher?: SecretCipher; readonly instanceId?: string; readonly consoleRoot?: string } = {},
): Promise<FastifyInstance> {
  await migrateToLatest(database, { migrations: templatesMigrations, tableName: TEMPLATES_MIGRATION_TABLE });
  // Open like the writes, unless a test asks otherwise (the access tests do).
  const config = loadTemplatesConfig(
    {},
    { demo: false, logLevel: 'silent', writeAccess: 'open', devicesReadAccess: 'open', ...overrides },
  );
  const app = await buildTemplatesApp({ config, database, ...options });
  await app.ready();
  return app;
}

/** Removes every stored template (between tests of one suite). */
export async function clearTemplates(database: Database<TemplatesDatabase>): Promise<void> {
  await database.db.deleteFrom('template_ids').execute();
}
