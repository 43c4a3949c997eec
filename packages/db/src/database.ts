import type { Kysely } from 'kysely';
import type pg from 'pg';

/** The SQL engines Triad runs on. */
export type DialectName = 'sqlite' | 'postgres';

/**
 * What the open engine can do. Code that differs between SQLite and PostgreSQL asks these flags
 * (or calls the helpers in `sql-helpers.ts`) instead of testing the dialect name.
 */
export interface DatabaseCapabilities {
  /** `INSERT/UPDATE/DELETE ... RETURNING` works. */
  readonly returning: boolean;
  /** `INSERT ... ON CONFLICT (...) DO UPDATE/NOTHING` works. */
  readonly onConflict: boolean;
  /** The `ILIKE` operator exists (case-insensitive LIKE for all of Unicode). */
  readonly ilike: boolean;
  /** Plain `LIKE` ignores ASCII case (SQLite) rather than comparing exactly (PostgreSQL). */
  readonly likeIgnoresCase: boolean;
  /** Collation name that compares strings by code point, for ORDER BY that is the same everywhere. */
  readonly binaryCollation: string;
  /** Several connections may write at the same time (PostgreSQL) rather than one writer (SQLite). */
  readonly concurrentWriters: boolean;
  /** Most bind parameters one statement may carry. */
  readonly maxBindParameters: number;
}

/**
 * The table map of a database opened without one: any table and column name is accepted and rows
 * are untyped. Kysely's own convention for code that must not know a schema (migrations,
 * schema-agnostic helpers); code that queries a service's tables passes its table interface instead.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely spells "no schema known" Kysely<any>
export type AnyTables = any;

/**
 * An open database: a Kysely instance plus what it runs on. `DB` is the table map the queries are
 * checked against (`Database<TemplatesDatabase>`); every opener (`openDatabase`,
 * `openServiceDatabase`, `describeEachDatabase`) takes it as a type argument, so a service never
 * casts. Without one, any table name is accepted (`AnyTables`).
 */
export interface Database<DB = AnyTables> {
  readonly db: Kysely<DB>;
  readonly dialect: DialectName;
  readonly capabilities: DatabaseCapabilities;
  /** PostgreSQL schema every connection uses (`search_path`), when one was asked for. */
  readonly schema?: string;
  /** Where the data lives, safe to log: the SQLite file or the URL with its password hidden. */
  readonly location: string;
  /**
   * PostgreSQL only: a new unpooled client on the same server, user and `search_path`, not yet
   * connected, for work that holds one session (LISTEN). The caller connects and ends it.
   */
  readonly newClient?: () => pg.Client;
  /** Closes every connection. Idempotent. */
  close(): Promise<void>;
}

/** How to open a database. Give `url` (PostgreSQL or `sqlite:` URL) or `sqliteFile`. */
export interface OpenDatabaseOptions {
  /**
   * `postgres://` / `postgresql://` selects PostgreSQL; `sqlite:<path>` or `file:<path>` selects
   * SQLite. When set it wins over `sqliteFile`.
   */
  readonly url?: string;
  /** SQLite file path (its parent directory is created), or `:memory:`. */
  readonly sqliteFile?: string;
  /** PostgreSQL only: schema put first on every connection's `search_path`. */
  readonly schema?: string;
  /** PostgreSQL only: most pooled connections. Default 10. */
  readonly maxConnections?: number;
  /** SQLite only: how long a statement waits for a lock before failing, in ms. Default 5000. */
  readonly busyTimeoutMs?: number;
  /**
   * SQLite only: page size in bytes (a power of two from 512 to 65536) for a file created by this
   * open; an existing file keeps its own. Default SQLite's 4096.
   */
  readonly sqlitePageSize?: number;
  /** Called with errors raised by idle pooled connections (PostgreSQL); they are otherwise ignored. */
  readonly onPoolError?: (error: Error) => void;
}

export const SQLITE_CAPABILITIES: DatabaseCapabilities = Object.freeze({
  returning: true,
  onConflict: true,
  ilike: false,
  likeIgnoresCase: true,
  binaryCollation: 'BINARY',
  concurrentWriters: false,
  maxBindParameters: 32_766,
});

export const POSTGRES_CAPABILITIES: DatabaseCapabilities = Object.freeze({
  returning: true,
  onConflict: true,
  ilike: true,
  likeIgnoresCase: false,
  binaryCollation: '"C"',
  concurrentWriters: true,
  maxBindParameters: 65_535,
});
