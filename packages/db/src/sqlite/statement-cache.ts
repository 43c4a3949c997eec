import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** How many distinct SQL texts keep their prepared statement. */
export const DEFAULT_STATEMENT_CACHE_SIZE = 256;

/**
 * The better-sqlite3 connection as Kysely's `SqliteDialect` sees it, with prepared statements
 * reused per SQL text. Kysely's driver prepares every query afresh; preparing costs about as
 * much as running a short indexed query, so hot requests pay it twice. Statements are kept in
 * least-recently-used order, at most `size`. A statement that is still iterating (a streamed
 * query not yet finished) is busy and cannot run again, so that case gets a fresh statement.
 *
 * Safe because Kysely only calls `reader`, `all`, `run` and `iterate` with parameters and never
 * changes a statement's mode (`raw`, `pluck`, `safeIntegers`, `bind`); SQLite re-prepares a
 * cached statement by itself when the schema changes.
 */
export function withStatementCache(
  connection: BetterSqlite3.Database,
  size = DEFAULT_STATEMENT_CACHE_SIZE,
): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => {
      cache.clear();
      connection.close();
    },
    prepare(sql: string): SqliteStatement {
      const cached = cache.get(sql);
      if (cached !== undefined) {
        if (cached.busy) return connection.prepare(sql);
        // Re-inserting moves the entry to the newest end of the Map's order.
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = connection.prepare(sql);
      cache.set(sql, statement);
      if (cache.size > size) cache.delete(cache.keys().next().value as string);
      return statement;
    },
  };
}
