import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '@triad/db';
import type { ContentTables } from '../migrations/content-tables.js';
import type { SearchBackend } from '../search/search-backend.js';
import type { SearchQuery } from '../search/search-query.js';
import { SqliteCatalogReader } from '../search/sqlite/sqlite-catalog-reader.js';
import { openContentConnection, type SqliteConnection } from '../search/sqlite/sqlite-connection.js';
import { loadTestCatalog } from './content-test-app.js';

/**
 * A builder of search queries: no words, shops, sort or facets, the first 10 articles, then
 * `defaults`, then a call's own `overrides`.
 */
export function queryWith(defaults: Partial<SearchQuery> = {}): (overrides?: Partial<SearchQuery>) => SearchQuery {
  return (overrides = {}) => ({
    words: [],
    shopIds: [],
    sort: [],
    limit: 10,
    offset: 0,
    facets: [],
    ...defaults,
    ...overrides,
  });
}

/** A SQLite store in a folder of its own holding the test catalog, and a reader on a connection of its own. */
export interface SqliteTestStore {
  readonly file: string;
  readonly database: Database<ContentTables>;
  /** The store's backend (its writer), which loaded the catalog. */
  readonly backend: SearchBackend;
  readonly connection: SqliteConnection;
  readonly reader: SqliteCatalogReader;
  /** Closes all of it and removes the folder. */
  close(): Promise<void>;
}

/** Loads the generated test catalog of `articles` into a new SQLite store (`loadTestCatalog`), with a reader on it. */
export async function openSqliteTestStore(articles: number): Promise<SqliteTestStore> {
  const directory = mkdtempSync(path.join(tmpdir(), 'triad-sqlite-store-test-'));
  const file = path.join(directory, 'content.sqlite');
  const database = openDatabase<ContentTables>({ sqliteFile: file });
  const backend = await loadTestCatalog(database, articles);
  const connection = openContentConnection(file, 'reader');
  return {
    file,
    database,
    backend,
    connection,
    reader: new SqliteCatalogReader(connection),
    close: async () => {
      connection.close();
      await backend.close();
      await database.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
