import { Kysely, PostgresDialect, type DatabaseIntrospector } from 'kysely';
import pg from 'pg';
import { POSTGRES_CAPABILITIES, type Database } from '../database.js';
import { DatabaseError } from '../errors.js';
import { redactUrl } from '../redact-url.js';
import { SearchPathIntrospector } from './search-path-introspector.js';

export interface PostgresOptions {
  readonly url: string;
  readonly schema?: string;
  readonly maxConnections?: number;
  readonly onPoolError?: (error: Error) => void;
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Throws `DB_ERR_SCHEMA_NAME_INVALID` unless `name` is a plain identifier (no quoting needed). */
export function assertSchemaName(name: string): void {
  if (!SCHEMA_NAME.test(name)) {
    throw new DatabaseError('DB_ERR_SCHEMA_NAME_INVALID', `"${name}" must match ${SCHEMA_NAME.source}`, {
      schema: name,
    });
  }
}

/**
 * Opens a pg pool behind Kysely. Connections are made lazily (on the first query). With `schema`,
 * every connection starts with `search_path` set to that schema (then `public`); creating the
 * schema is the migrator's job.
 */
export function openPostgresDatabase<DB>(options: PostgresOptions): Database<DB> {
  if (options.schema !== undefined) assertSchemaName(options.schema);
  const session = {
    connectionString: options.url,
    ...(options.schema !== undefined ? { options: `-c search_path=${options.schema},public` } : {}),
  };
  const pool = new pg.Pool({ ...session, max: options.maxConnections ?? 10 });
  // An idle client losing its server emits 'error' on the pool; unhandled, it would end the process.
  pool.on('error', (error) => options.onPoolError?.(error));
  const db = new Kysely<DB>({ dialect: new SearchPathPostgresDialect({ pool }) });
  let closed: Promise<void> | undefined;
  return {
    db,
    dialect: 'postgres',
    capabilities: POSTGRES_CAPABILITIES,
    ...(options.schema !== undefined ? { schema: options.schema } : {}),
    location: redactUrl(options.url) + (options.schema !== undefined ? ` (schema ${options.schema})` : ''),
    newClient: () => new pg.Client(session),
    close() {
      closed ??= db.destroy();
      return closed;
    },
  };
}

/** Kysely's PostgreSQL dialect with introspection kept to the connection's search path. */
class SearchPathPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SearchPathIntrospector(db);
  }
}
