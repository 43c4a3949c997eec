import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { SQLITE_CAPABILITIES, type Database } from '../database.js';
import { withStatementCache } from './statement-cache.js';

/** WAL bytes written before SQLite checkpoints on its own (`wal_autocheckpoint`, in pages of the file). */
export const WAL_CHECKPOINT_BYTES = 32 * 1024 * 1024;

export interface SqliteOptions {
  readonly file: string;
  readonly busyTimeoutMs?: number;
  /** Page size for a newly created file (see `OpenDatabaseOptions.sqlitePageSize`). */
  readonly pageSize?: number;
}

/**
 * Opens (creating when needed) a SQLite file with better-sqlite3: WAL journal, foreign keys on,
 * a busy timeout, and the file's parent directory created first (mode 0700). The file is created
 * with mode 0600, and an existing one readable by others is narrowed to 0600; SQLite gives its WAL
 * and shared-memory files the mode of the database file. Prepared statements are reused
 * per SQL text (`withStatementCache`).
 */
export function openSqliteDatabase<DB>(options: SqliteOptions): Database<DB> {
  const inMemory = options.file === ':memory:' || options.file === '';
  if (!inMemory) createPrivately(path.resolve(options.file));
  const connection = new BetterSqlite3(inMemory ? ':memory:' : options.file);
  try {
    connection.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5_000))}`);
    if (options.pageSize !== undefined) {
      const size = options.pageSize;
      if (!Number.isInteger(size) || size < 512 || size > 65_536 || (size & (size - 1)) !== 0) {
        throw new RangeError(`SQLite page size must be a power of two from 512 to 65536, not ${size}`);
      }
      // Takes effect only while the file is still empty, i.e. before WAL is switched on below.
      connection.pragma(`page_size = ${size}`);
    }
    if (!inMemory) {
      connection.pragma('journal_mode = WAL');
      // With WAL, NORMAL keeps the database consistent across crashes and avoids an fsync per commit.
      connection.pragma('synchronous = NORMAL');
      // Checkpoint after about 32 MiB of WAL rather than SQLite's 1,000 pages (4 MiB at 4 KiB): a
      // page written by many commits (history aggregates, indexes) is copied back once per
      // checkpoint, not once per 1,000 pages. 7-15 % less CPU per MQTT message with history on
      // (decision 0050, "SQLite checkpoints"); recovery after a crash replays at most that much.
      const pageSize = Number(connection.pragma('page_size', { simple: true }));
      connection.pragma(`wal_autocheckpoint = ${Math.max(1000, Math.floor(WAL_CHECKPOINT_BYTES / pageSize))}`);
    }
    connection.pragma('foreign_keys = ON');
  } catch (error) {
    connection.close();
    throw error;
  }
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  let closed: Promise<void> | undefined;
  return {
    db,
    dialect: 'sqlite',
    capabilities: SQLITE_CAPABILITIES,
    location: inMemory ? ':memory:' : path.resolve(options.file),
    close() {
      closed ??= db.destroy();
      return closed;
    },
  };
}

/** Creates the directories (0700) and the file (0600) that do not exist; narrows a file open to others. */
function createPrivately(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
}
