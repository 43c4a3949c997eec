import { Migrator, sql, type Migration, type MigrationResult } from 'kysely';
import { errorMessage } from '@triad/common';
import type { Database } from './database.js';
import { DatabaseError } from './errors.js';

/** A service's migrations, by name; names sort in the order they must run (`0001_create_x`). */
export type MigrationSet = Readonly<Record<string, Migration>>;

export interface MigrateOptions {
  readonly migrations: MigrationSet;
  /** Per-service bookkeeping table (e.g. `templates_migrations`), so services can share a database. */
  readonly tableName: string;
  /** Lock table; default `<tableName>_lock`. */
  readonly lockTableName?: string;
}

/** What happened to one migration in a run. */
export interface MigrationOutcome {
  readonly name: string;
  readonly status: 'applied' | 'failed' | 'not-run';
}

/** The outcome of `migrateToLatest`: per-migration status in run order. */
export interface MigrationReport {
  readonly outcomes: readonly MigrationOutcome[];
  /** Names applied in this run (empty when the database was already current). */
  readonly applied: readonly string[];
  /**
   * Migrations the database has that this code does not know, all newer than its own newest: a
   * newer release migrated the database while this one still runs (an upgrade in progress). Such
   * a database is served as it is; empty otherwise.
   */
  readonly newerInDatabase: readonly string[];
}

/**
 * Brings the database to the newest migration of the set, under the migrator's lock. On
 * PostgreSQL with a schema, the schema is created first.
 *
 * A database already holding migrations newer than the set's newest (a newer release migrated it
 * while this code still runs) is accepted as it is and they are listed in `newerInDatabase`:
 * migrations are additive for one version, so the previous release keeps working on the new
 * schema during an upgrade (CONTRIBUTING, "Migrations"). An unknown migration that sorts before
 * the set's newest is still refused: that database does not belong to this code's history.
 *
 * @throws DatabaseError `DB_ERR_MIGRATION_FAILED` with `details.outcomes` (per migration) and
 *   `details.failed` (the failing migration's name, when one failed) and the driver error as `cause`.
 */
export async function migrateToLatest<DB>(database: Database<DB>, options: MigrateOptions): Promise<MigrationReport> {
  if (database.dialect === 'postgres' && database.schema !== undefined) {
    // The name was checked to be a plain identifier when the database was opened.
    await sql`create schema if not exists ${sql.id(database.schema)}`.execute(database.db);
  }
  const newest = Object.keys(options.migrations).sort().at(-1) ?? '';
  // A newer instance may add a migration between the look and the run: look again once.
  for (let attempt = 1; ; attempt++) {
    const newerInDatabase = (await executedMigrationNames(database, options.tableName)).filter(
      (name) => !(name in options.migrations) && name > newest,
    );
    const migrator = new Migrator({
      db: database.db,
      provider: { getMigrations: () => Promise.resolve({ ...options.migrations, ...placeholders(newerInDatabase) }) },
      migrationTableName: options.tableName,
      migrationLockTableName: options.lockTableName ?? `${options.tableName}_lock`,
      ...(database.schema !== undefined ? { migrationTableSchema: database.schema } : {}),
    });
    const { error, results } = await migrator.migrateToLatest();
    const outcomes = (results ?? []).map(toOutcome);
    if (error === undefined) {
      return { outcomes, applied: outcomes.filter((o) => o.status === 'applied').map((o) => o.name), newerInDatabase };
    }
    if (attempt === 1 && /previously executed migration .* is missing/.test(errorMessage(error))) continue;
    const failed = outcomes.find((o) => o.status === 'failed')?.name;
    throw new DatabaseError(
      'DB_ERR_MIGRATION_FAILED',
      `${failed ? `migration ${failed}` : 'migrator'} of ${options.tableName}: ${errorMessage(error)}`,
      { table: options.tableName, outcomes, ...(failed ? { failed } : {}) },
      { cause: error },
    );
  }
}

/** Names in the migration table; none when it does not exist yet. */
async function executedMigrationNames<DB>(database: Database<DB>, tableName: string): Promise<string[]> {
  const table = database.schema !== undefined ? `${database.schema}.${tableName}` : tableName;
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(table)}`.execute(database.db);
    return rows.map((row) => row.name);
  } catch {
    return []; // absent (a new database); were it unreadable, the migrator reports why
  }
}

/** Stand-ins for migrations a newer release applied: already run, so never called. */
function placeholders(names: readonly string[]): Record<string, Migration> {
  const applied: Migration = {
    up: () => Promise.reject(new Error('a migration of a newer release cannot run from this code')),
  };
  return Object.fromEntries(names.map((name) => [name, applied]));
}

function toOutcome(result: MigrationResult): MigrationOutcome {
  const status = result.status === 'Success' ? 'applied' : result.status === 'Error' ? 'failed' : 'not-run';
  return { name: result.migrationName, status };
}
