import type { AnyTables, Database } from './database.js';
import { DatabaseError } from './errors.js';
import { openDatabase } from './open-database.js';
import { redactUrl } from './redact-url.js';

/** Where replica trouble is reported (a pino logger fits). */
export interface ReadReplicaLog {
  warn(object: object, message: string): void;
}

export interface ReadReplicaOptions {
  /** Schema of every replica connection (`search_path`); default the primary's. */
  readonly schema?: string;
  /** Called with errors raised by idle pooled replica connections. */
  readonly onPoolError?: (error: Error) => void;
  readonly log?: ReadReplicaLog;
  /** Most pooled connections per replica. Default 10. */
  readonly maxConnections?: number;
  /** How long a replica marked failed stays out of rotation, in ms. Default 5000. */
  readonly retryAfterMs?: number;
  /** The clock, in ms (tests pass their own). Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * The read side of a primary and its streaming replicas. Reads that may lag the primary by a
 * moment (searches, listings) go to `pick()`; writes, and reads that must see a write just made,
 * go to the primary.
 */
export interface ReadReplicas<DB = AnyTables> {
  /** The next healthy replica, round-robin; the primary when none is configured or healthy. */
  pick(): Database<DB>;
  /** The replicas, in the order their URLs were given (not the primary). */
  readonly all: readonly Database<DB>[];
  /** The primary the replicas follow. */
  readonly primary: Database<DB>;
  /**
   * Takes `database` (one of `all`) out of rotation for `retryAfterMs`, then `pick()` tries it
   * again. Ignored for the primary and for databases that are not replicas.
   */
  markFailed(database: Database<DB>, error: unknown): void;
  /**
   * Runs `query` on `pick()`. When a replica cannot be reached (connection refused or lost, or
   * the server is starting or shutting down), the replica is marked failed and the query runs
   * again on the primary; other errors (bad SQL, constraint) are rethrown as they are.
   */
  read<T>(query: (database: Database<DB>) => Promise<T>): Promise<T>;
  /** Closes the replicas (not the primary, which its opener closes). Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens one pooled connection set per replica URL (PostgreSQL only; connections are made on the
 * first query). On a SQLite primary the URLs are ignored with a warning: SQLite has one file and
 * no replicas.
 *
 * @throws DatabaseError `DB_ERR_URL_UNSUPPORTED` for a URL that is not `postgres://` or
 *   `postgresql://`, `DB_ERR_SCHEMA_NAME_INVALID` for a bad schema.
 */
export function openReadReplicas<DB = AnyTables>(
  primary: Database<DB>,
  urls: readonly string[],
  options: ReadReplicaOptions = {},
): ReadReplicas<DB> {
  const wanted = urls.map((url) => url.trim()).filter((url) => url !== '');
  for (const url of wanted) {
    if (!/^postgres(ql)?:\/\//i.test(url)) {
      throw new DatabaseError('DB_ERR_URL_UNSUPPORTED', `read replica ${redactUrl(url)}`, { url: redactUrl(url) });
    }
  }
  if (wanted.length > 0 && primary.dialect !== 'postgres') {
    options.log?.warn(
      { replicas: wanted.map(redactUrl) },
      'read replica URLs ignored: the data lives in SQLite, which has no replicas',
    );
    wanted.length = 0;
  }
  const schema = options.schema ?? primary.schema;
  const all: readonly Database<DB>[] = Object.freeze(
    wanted.map((url) =>
      openDatabase<DB>({
        url,
        ...(schema !== undefined ? { schema } : {}),
        ...(options.maxConnections !== undefined ? { maxConnections: options.maxConnections } : {}),
        ...(options.onPoolError ? { onPoolError: options.onPoolError } : {}),
      }),
    ),
  );
  const now = options.now ?? Date.now;
  const retryAfterMs = options.retryAfterMs ?? 5000;
  const failedUntil = new Map<Database<DB>, number>();
  let next = 0;
  let closed: Promise<void> | undefined;

  const replicas: ReadReplicas<DB> = {
    all,
    primary,
    pick() {
      const time = now();
      for (let tried = 0; tried < all.length; tried++) {
        const candidate = all[(next + tried) % all.length];
        if (candidate === undefined) break;
        const until = failedUntil.get(candidate);
        if (until !== undefined && until > time) continue;
        failedUntil.delete(candidate);
        next = (next + tried + 1) % all.length;
        return candidate;
      }
      return primary;
    },
    markFailed(database, error) {
      if (!all.includes(database)) return;
      const wasHealthy = !failedUntil.has(database);
      failedUntil.set(database, now() + retryAfterMs);
      if (wasHealthy) {
        options.log?.warn(
          { err: error, replica: database.location, retryAfterMs },
          'read replica failed; reading elsewhere for now',
        );
      }
    },
    async read(query) {
      const database = replicas.pick();
      if (database === primary) return query(primary);
      try {
        return await query(database);
      } catch (error) {
        if (!isUnreachable(error)) throw error;
        replicas.markFailed(database, error);
        return query(primary);
      }
    },
    close() {
      closed ??= Promise.all(all.map((database) => database.close())).then(() => undefined);
      return closed;
    },
  };
  return Object.freeze(replicas);
}

/** Node socket failures that mean "the server is not there". */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);
/** PostgreSQL SQLSTATEs of a server that is starting, stopping or gone: class 08 and 57P01-57P03. */
const SERVER_GONE = /^(08...|57P0[1-3])$/;

/**
 * True when `error` says the server could not be reached or went away (so another server may
 * answer), false for errors of the query itself.
 */
export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_GONE.test(code))) return true;
  if (/^Connection terminated|^timeout expired|Client has encountered a connection error/.test(error.message)) {
    return true;
  }
  return error instanceof AggregateError && error.errors.some(isUnreachable);
}
