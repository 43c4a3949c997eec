import BetterSqlite3 from 'better-sqlite3';

/** The better-sqlite3 connection type the SQLite backend uses. */
export type SqliteConnection = BetterSqlite3.Database;

/** Page cache per connection, KiB (negative `cache_size`). */
const CACHE_KIB = { reader: 32_768, writer: 65_536 } as const; // 32 MiB, 64 MiB
/** How long a statement waits for another connection's lock, ms. */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens a connection of its own to the content store's SQLite file (WAL, set when the database
 * was opened). The reader is query-only, so searches never take the write lock and keep seeing
 * the last committed catalog while an import holds the writer's transaction.
 *
 * @throws RangeError for an in-memory database: a second connection would see another database.
 */
export function openContentConnection(file: string, role: 'reader' | 'writer'): SqliteConnection {
  if (file === ':memory:' || file === '')
    throw new RangeError(
      'the SQLite content store needs a database file (an in-memory database cannot have a second connection)',
    );
  const connection = new BetterSqlite3(file);
  try {
    connection.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    connection.pragma('synchronous = NORMAL');
    connection.pragma(`cache_size = -${CACHE_KIB[role]}`);
    if (role === 'reader') connection.pragma('query_only = ON');
  } catch (error) {
    connection.close();
    throw error;
  }
  return connection;
}
