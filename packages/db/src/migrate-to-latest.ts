import { inspect } from 'node:util';
import { Migrator, sql, type Migration, type MigrationResult } from 'kysely';
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
}

/**
 * Brings the database to the newest migration of the set, under the migrator's lock. On
 * PostgreSQL with a schema, the schema is created first.
 *
 * @throws DatabaseError `DB_ERR_MIGRATION_FAILED` with `details.outcomes` (per migration) and
 *   `details.failed` (the failing migration's name, when one failed) and the driver error as `cause`.
 */
export async function migrateToLatest<DB>(database: Database<DB>, options: MigrateOptions): Promise<MigrationReport> {
  if (database.dialect === 'postgres' && database.schema !== undefined) {
    // The name was checked to be a plain identifier when the database was opened.
    await sql`create schema if not exists ${sql.id(database.schema)}`.execute(database.db);
  }
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: () => Promise.resolve({ ...options.migrations }) },
    migrationTableName: options.tableName,
    migrationLockTableName: options.lockTableName ?? `${options.tableName}_lock`,
    ...(database.schema !== undefined ? { migrationTableSchema: database.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const outcomes = (results ?? []).map(toOutcome);
  if (error !== undefined) {
    const failed = outcomes.find((o) => o.status === 'failed')?.name;
    throw new DatabaseError(
      'DB_ERR_MIGRATION_FAILED',
      `${failed ? `migration ${failed}` : 'migrator'} of ${options.tableName}: ${messageOf(error)}`,
      { table: options.tableName, outcomes, ...(failed ? { failed } : {}) },
      { cause: error },
    );
  }
  return { outcomes, applied: outcomes.filter((o) => o.status === 'applied').map((o) => o.name) };
}

/** The message of what Kysely's migrator reported; it rethrows whatever a migration threw. */
function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : inspect(error);
}

function toOutcome(result: MigrationResult): MigrationOutcome {
  const status = result.status === 'Success' ? 'applied' : result.status === 'Error' ? 'failed' : 'not-run';
  return { name: result.migrationName, status };
}
