import type { AnyTables, Database, OpenDatabaseOptions } from './database.js';
import { DatabaseError } from './errors.js';
import { openPostgresDatabase } from './postgres/open-postgres-database.js';
import { redactUrl } from './redact-url.js';
import { openSqliteDatabase } from './sqlite/open-sqlite-database.js';

/**
 * Opens SQLite or PostgreSQL from options: a `postgres://`/`postgresql://` URL selects PostgreSQL
 * (pg pool, lazy connections), a `sqlite:`/`file:` URL or `sqliteFile` selects SQLite. `DB` is the
 * table map queries are checked against (`openDatabase<MyTables>(...)`); default untyped.
 *
 * @throws DatabaseError `DB_ERR_OPTIONS_MISSING` when neither is given, `DB_ERR_URL_UNSUPPORTED`
 *   for another scheme, `DB_ERR_SCHEMA_NAME_INVALID` for a schema that is not a plain identifier.
 */
export function openDatabase<DB = AnyTables>(options: OpenDatabaseOptions): Database<DB> {
  const url = options.url?.trim();
  if (url) {
    if (/^postgres(ql)?:\/\//i.test(url)) {
      return openPostgresDatabase<DB>({
        url,
        ...(options.schema !== undefined ? { schema: options.schema } : {}),
        ...(options.maxConnections !== undefined ? { maxConnections: options.maxConnections } : {}),
        ...(options.onPoolError ? { onPoolError: options.onPoolError } : {}),
      });
    }
    const file = sqliteFileFromUrl(url);
    if (file === undefined) {
      throw new DatabaseError('DB_ERR_URL_UNSUPPORTED', redactUrl(url), { url: redactUrl(url) });
    }
    return openSqliteDatabase<DB>({ file, ...busy(options) });
  }
  if (options.sqliteFile !== undefined && options.sqliteFile !== '') {
    return openSqliteDatabase<DB>({ file: options.sqliteFile, ...busy(options) });
  }
  throw new DatabaseError('DB_ERR_OPTIONS_MISSING');
}

function busy(options: OpenDatabaseOptions): { busyTimeoutMs?: number; pageSize?: number } {
  return {
    ...(options.busyTimeoutMs !== undefined ? { busyTimeoutMs: options.busyTimeoutMs } : {}),
    ...(options.sqlitePageSize !== undefined ? { pageSize: options.sqlitePageSize } : {}),
  };
}

/** `sqlite:data/x.sqlite`, `sqlite:///abs/x.sqlite`, `file:x.sqlite`, `sqlite::memory:` -> path. */
function sqliteFileFromUrl(url: string): string | undefined {
  const match = /^(?:sqlite|file):(.*)$/i.exec(url);
  if (!match) return undefined;
  let rest = match[1] ?? '';
  if (rest.startsWith('//')) rest = rest.slice(2); // sqlite:///abs -> /abs, sqlite://rel -> rel
  rest = decodeURIComponent(rest.split('?')[0] ?? '');
  return rest === '' ? undefined : rest;
}
