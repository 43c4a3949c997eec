import path from 'node:path';
import type { AnyTables, Database } from './database.js';
import { migrateToLatest, type MigrateOptions, type MigrationSet } from './migrate-to-latest.js';
import { mkdir } from 'node:fs/promises';
import { openDatabase } from './open-database.js';
import { claimSqliteInstance, type InstanceClaim } from './sqlite/claim-sqlite-instance.js';

/** Where a service keeps its data and which migrations bring it up to date; `DB` is its table map. */
export interface OpenServiceDatabaseOptions<DB = AnyTables> extends Omit<MigrateOptions, 'migrations'> {
  /** The migrations, or a function choosing them for the opened engine (SQLite or PostgreSQL). */
  readonly migrations: MigrationSet | ((database: Database<DB>) => MigrationSet);
  /** PostgreSQL URL; when set, data lives there instead of SQLite. */
  readonly databaseUrl?: string | undefined;
  /** Directory of the SQLite file (used without `databaseUrl`). */
  readonly dataDir: string;
  /** SQLite file name inside `dataDir`, e.g. `templates.sqlite`. */
  readonly sqliteFile: string;
  /** Page size of a newly created SQLite file (`OpenDatabaseOptions.sqlitePageSize`). */
  readonly sqlitePageSize?: number;
  /**
   * The service's name when this process is the service itself (not a command-line tool): on
   * SQLite it then claims the file for this instance, and a second instance fails to start with
   * DB_ERR_SQLITE_IN_USE. The claim ends when the database is closed.
   */
  readonly singleInstance?: string;
  /** Where "database ready" and idle-connection failures are reported (a pino logger fits). */
  readonly log?: {
    info(object: object, message: string): void;
    warn(object: object, message: string): void;
  };
}

/**
 * What every service does first: opens PostgreSQL (`databaseUrl`) or `<dataDir>/<sqliteFile>`,
 * brings it to its newest migration and logs where the data lives and what was applied. On a
 * failed migration the database is closed before the error is rethrown. `DB` is the service's table
 * map: `openServiceDatabase<TemplatesDatabase>(...)` resolves to a `Database<TemplatesDatabase>`.
 */
export async function openServiceDatabase<DB = AnyTables>(
  options: OpenServiceDatabaseOptions<DB>,
): Promise<Database<DB>> {
  const { log } = options;
  const sqliteFile = path.join(options.dataDir, options.sqliteFile);
  let claim: InstanceClaim | undefined;
  if (options.singleInstance !== undefined && !options.databaseUrl) {
    await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
    claim = await claimSqliteInstance(sqliteFile, options.singleInstance);
  }
  const opened = options.databaseUrl
    ? openDatabase<DB>({
        url: options.databaseUrl,
        onPoolError: (error) => log?.warn({ err: error }, 'idle database connection failed'),
      })
    : openDatabase<DB>({
        sqliteFile,
        ...(options.sqlitePageSize !== undefined ? { sqlitePageSize: options.sqlitePageSize } : {}),
      });
  const database: Database<DB> =
    claim === undefined
      ? opened
      : {
          ...opened,
          close: async () => {
            await opened.close();
            await claim.release();
          },
        };
  try {
    const report = await migrateToLatest(database, {
      migrations: typeof options.migrations === 'function' ? options.migrations(database) : options.migrations,
      tableName: options.tableName,
      ...(options.lockTableName !== undefined ? { lockTableName: options.lockTableName } : {}),
    });
    log?.info({ database: database.location, applied: report.applied }, 'database ready');
    if (report.newerInDatabase.length > 0) {
      log?.warn(
        { database: database.location, newer: report.newerInDatabase },
        'the database was migrated by a newer release; this one runs on it until it is upgraded too',
      );
    }
    return database;
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}
