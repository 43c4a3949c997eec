import type { Database, MigrationSet } from '@triad/db';
import type { Migration } from 'kysely';
import type { ContentTables } from '../search/content-tables.js';
import { createPostgresArticles } from '../search/postgres/postgres-articles-migration.js';
import { createPostgresFacetCounts } from '../search/postgres/postgres-facet-counts-migration.js';
import { PostgresSearchBackend } from '../search/postgres/postgres-search-backend.js';
import { createPostgresSegments } from '../search/postgres/postgres-segments-migration.js';
import { versionPostgresChunks } from '../search/postgres/postgres-chunk-versions-migration.js';
import type { SearchBackend } from '../search/search-backend.js';
import { createSqliteArticles } from '../search/sqlite/sqlite-articles-migration.js';
import { SqliteSearchBackend } from '../search/sqlite/sqlite-search-backend.js';
import { createSqliteSegments } from '../search/sqlite/sqlite-segments-migration.js';
import { ImportRunRepository } from '../repositories/import-run-repository.js';
import { createContent } from './0001-create-content.js';
import { createImportRuns } from './0004-create-import-runs.js';
import { createSigningKeys } from './0006-create-signing-keys.js';

/** Bookkeeping table of the content API's migrations (services may share one database). */
export const CONTENT_MIGRATION_TABLE = 'content_migrations';

/** Migrations and search backend of one engine, and the record of catalog imports. */
export interface ContentStorage {
  readonly migrations: MigrationSet;
  readonly backend: SearchBackend;
  readonly importRuns: ImportRunRepository;
}

/**
 * Picks the engine implementation for an open database: the migration set (shared tables plus
 * the engine's article table and text index, then its search layout of decision 0013, then the
 * import runs), the matching `SearchBackend` and the `ImportRunRepository`. SQLite needs a
 * database file (the backend opens its own read and write connections to it); call the
 * backend's `close` before closing the database.
 */
export function contentStorageFor(database: Database<ContentTables>): ContentStorage {
  const engine: {
    articles: Migration;
    search: Migration;
    backend: SearchBackend;
    segments: MigrationSet;
    later: MigrationSet;
  } =
    database.dialect === 'postgres'
      ? {
          articles: createPostgresArticles,
          search: createPostgresFacetCounts,
          backend: new PostgresSearchBackend(database),
          segments: { '0005_postgres_segments': createPostgresSegments },
          later: { '0007_postgres_chunk_versions': versionPostgresChunks },
        }
      : {
          articles: createSqliteArticles,
          search: createSqliteSegments,
          backend: new SqliteSearchBackend(database),
          segments: {},
          later: {},
        };
  return {
    migrations: Object.freeze({
      '0001_create_content': createContent,
      '0002_create_articles': engine.articles,
      '0003_search_layout': engine.search,
      '0004_import_runs': createImportRuns,
      ...engine.segments,
      '0006_signing_keys': createSigningKeys,
      ...engine.later,
    }),
    backend: engine.backend,
    importRuns: new ImportRunRepository(database),
  };
}
