import { openReadReplicas, openServiceDatabase, type Database, type MigrationSet, type ReadReplicas } from '@triad/db';
import type { ContentTables } from './migrations/content-tables.js';
import { CONTENT_MIGRATION_TABLE, contentMigrations, type EngineMigrations } from './migrations/index.js';
import { ImportRunRepository } from './repositories/import-run-repository.js';
import { createPostgresArticles } from './search/postgres/postgres-articles-migration.js';
import { addPostgresArticlePrices } from './search/postgres/postgres-article-prices-migration.js';
import { addPostgresVocabularyChanges } from './search/postgres/postgres-vocabulary-changes-migration.js';
import { addPostgresBucketWords } from './search/postgres/postgres-bucket-words-migration.js';
import { addPostgresClassificationFacets } from './search/postgres/postgres-classification-facets-migration.js';
import { versionPostgresChunks } from './search/postgres/postgres-chunk-versions-migration.js';
import { createPostgresFacetCounts } from './search/postgres/postgres-facet-counts-migration.js';
import { PostgresSearchBackend } from './search/postgres/postgres-search-backend.js';
import { createPostgresSegments } from './search/postgres/postgres-segments-migration.js';
import type { SearchBackend } from './search/search-backend.js';
import { carryOverFirstLayout } from './search/sqlite/carry-over-first-layout.js';
import { createSqliteArticles } from './search/sqlite/sqlite-articles-migration.js';
import { addSqliteClassificationFacets } from './search/sqlite/sqlite-classification-facets-migration.js';
import { addSqliteSegmentWords } from './search/sqlite/sqlite-segment-words-migration.js';
import { versionSqliteChunks } from './search/sqlite/sqlite-chunk-versions-migration.js';
import { indexSqliteChunkVersions } from './search/sqlite/sqlite-chunk-version-index-migration.js';
import { SqliteSearchBackend } from './search/sqlite/sqlite-search-backend.js';
import { createSqliteSegments } from './search/sqlite/sqlite-segments-migration.js';

/** SQLite file of the service inside the data directory. */
export const CONTENT_SQLITE_FILE = 'content.sqlite';

/**
 * Page size of a new content SQLite file: the segment columns are stored as blobs of tens of
 * KiB and imports write long runs of rows; 16 KiB pages measured faster than SQLite's 4 KiB
 * (decision 0013).
 */
export const CONTENT_SQLITE_PAGE_SIZE = 16_384;

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
  const engine: EngineMigrations & { backend: SearchBackend } =
    database.dialect === 'postgres'
      ? {
          articles: createPostgresArticles,
          search: createPostgresFacetCounts,
          backend: new PostgresSearchBackend(database),
          segments: { '0005_postgres_segments': createPostgresSegments },
          later: {
            '0007_postgres_chunk_versions': versionPostgresChunks,
            '0011_classification_facets': addPostgresClassificationFacets,
            '0015_postgres_bucket_words': addPostgresBucketWords,
            '0019_postgres_article_prices': addPostgresArticlePrices,
            '0020_postgres_vocabulary_changes': addPostgresVocabularyChanges,
          },
        }
      : {
          articles: createSqliteArticles,
          search: createSqliteSegments,
          backend: new SqliteSearchBackend(database),
          segments: {},
          later: {
            '0011_classification_facets': addSqliteClassificationFacets,
            '0016_sqlite_segment_words': addSqliteSegmentWords,
            '0017_sqlite_chunk_versions': versionSqliteChunks,
            '0018_sqlite_chunk_version_index': indexSqliteChunkVersions,
          },
        };
  return {
    migrations: contentMigrations(engine),
    backend: engine.backend,
    importRuns: new ImportRunRepository(database),
  };
}

/**
 * The content API's composition root: an open, migrated content store (database, search backend,
 * import runs), as the service and the CLI commands use it.
 */
export interface ContentApiCore {
  readonly database: Database<ContentTables>;
  readonly backend: SearchBackend;
  /** The record of catalog imports. */
  readonly importRuns: ImportRunRepository;
  /** Closes the backend's own connections, then the database. Idempotent. */
  close(): Promise<void>;
}

/** Where the store's progress is reported (a pino logger fits). */
export interface ContentApiCoreLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/**
 * Opens the content store as the service and `triad catalog import` both need it: PostgreSQL
 * (`databaseUrl`) or `<dataDir>/content.sqlite`, migrated to the newest layout, with catalogs of
 * SQLite's first layout carried into the current one (`carryOverFirstLayout`). Closes what it
 * opened when any step fails.
 */
export async function openContentApiCore(options: {
  databaseUrl?: string | undefined;
  /**
   * Streaming replicas of the PostgreSQL `databaseUrl` (`DATABASE_READ_URL`): searches and reads
   * go there, imports and other writes to the primary (decision 0025). Ignored, with a warning, on SQLite.
   */
  databaseReadUrls?: readonly string[] | undefined;
  dataDir: string;
  log?: ContentApiCoreLog;
  /** Set by the service (not by commands): on SQLite, refuse a second service instance on the file. */
  singleInstance?: string;
}): Promise<ContentApiCore> {
  const { log } = options;
  let storage: ContentStorage | undefined;
  const database = await openServiceDatabase<ContentTables>({
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir,
    sqliteFile: CONTENT_SQLITE_FILE,
    sqlitePageSize: CONTENT_SQLITE_PAGE_SIZE,
    // The engine decides the migrations and the backend; the backend opens its connections lazily.
    migrations: (opened) => {
      storage = contentStorageFor(opened);
      return storage.migrations;
    },
    tableName: CONTENT_MIGRATION_TABLE,
    ...(options.singleInstance !== undefined ? { singleInstance: options.singleInstance } : {}),
    ...(log ? { log } : {}),
  });
  // openServiceDatabase asks for the migrations before it resolves.
  if (storage === undefined) throw new Error('the content store was opened without its migrations');
  const { backend: opened, importRuns } = storage;
  let replicas: ReadReplicas<ContentTables> | undefined;
  try {
    if (options.databaseReadUrls && options.databaseReadUrls.length > 0) {
      replicas = openReadReplicas(database, options.databaseReadUrls, {
        ...(log
          ? { log, onPoolError: (error: Error) => log.warn({ err: error }, 'read replica connection lost') }
          : {}),
      });
      if (opened instanceof PostgresSearchBackend && replicas.all.length > 0) opened.readFrom(replicas);
    }
    const carried = await carryOverFirstLayout(database, opened);
    if (carried) {
      log?.info(
        { shops: carried.shops, articles: carried.articles },
        'catalogs carried over into the current search layout',
      );
      for (const f of carried.failed)
        log?.error(
          f,
          'a catalog could not be carried over; its articles stay in content_articles_v1 (import it again)',
        );
    }
  } catch (error) {
    await opened.close().catch(() => {});
    await replicas?.close().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    database,
    backend: opened,
    importRuns,
    close: () => {
      closing ??= opened
        .close()
        .finally(() => replicas?.close())
        .finally(() => database.close());
      return closing;
    },
  };
}
