import type { Database, MigrationSet } from '@triad/db';
import { createPostgresArticles } from '../search/postgres/postgres-articles-migration.js';
import { PostgresSearchBackend } from '../search/postgres/postgres-search-backend.js';
import type { SearchBackend } from '../search/search-backend.js';
import { createSqliteArticles } from '../search/sqlite/sqlite-articles-migration.js';
import { SqliteSearchBackend } from '../search/sqlite/sqlite-search-backend.js';
import { createContent } from './0001-create-content.js';

/** Bookkeeping table of the content API's migrations (services may share one database). */
export const CONTENT_MIGRATION_TABLE = 'content_migrations';

/** Migrations and search backend of one engine. */
export interface ContentStorage {
  readonly migrations: MigrationSet;
  readonly backend: SearchBackend;
}

/**
 * Picks the engine implementation for an open database: the migration set (shared tables plus
 * the engine's article table and text index) and the matching `SearchBackend`.
 */
export function contentStorageFor(database: Database): ContentStorage {
  const engine =
    database.dialect === 'postgres'
      ? { articles: createPostgresArticles, backend: new PostgresSearchBackend(database) }
      : { articles: createSqliteArticles, backend: new SqliteSearchBackend(database) };
  return {
    migrations: Object.freeze({ '0001_create_content': createContent, '0002_create_articles': engine.articles }),
    backend: engine.backend,
  };
}
