import type { Database } from '@triad/db';
import type { ContentTables } from '../../migrations/content-tables.js';
import type { Article, BusinessShop } from '../../model/article.js';
import type {
  CatalogReplacement,
  DeltaCounts,
  PreloadLog,
  SearchBackend,
  ShopCatalogDelta,
  ShopCatalogReplacement,
} from '../search-backend.js';
import { applySqliteShopDelta } from './sqlite-shop-delta.js';
import type { SearchPage, SearchQuery } from '../search-query.js';
import type { ShopPut, ShopRemoval, ShopRemovalOutcome, ShopWriteOutcome } from '../shop-changes.js';
import type { SuggestPage, SuggestQuery } from '../suggest-words.js';
import { SqliteCatalogReader } from './sqlite-catalog-reader.js';
import { SqliteCatalogWriter } from './sqlite-catalog-writer.js';
import { openContentConnection, type SqliteConnection } from './sqlite-connection.js';
import { SqliteShopWriter } from './sqlite-shop-writer.js';
import type { SegmentSearcher } from '../workers/search-worker-pool.js';

/** How often a backend keeping its catalog loaded asks whether another process committed a change (ms). */
export const SQLITE_WATCH_MS = 250;

/**
 * SQLite search (decision 0013): FTS5 finds the articles having every word; each shop's segment
 * (columns of facet keys, prices, lengths and id order, held in memory per content version)
 * gives filters, exact counts of all facets in one pass, ranking and order. Reads and imports
 * use two connections of their own to the database file, opened on first use: searches keep
 * seeing the committed catalog while an import's transaction is open.
 */
export class SqliteSearchBackend implements SearchBackend {
  readonly engine = 'sqlite-fts5-segments';
  readonly #file: string;
  #reader: { connection: SqliteConnection; catalog: SqliteCatalogReader } | undefined;
  #writer: { connection: SqliteConnection; catalog: SqliteCatalogWriter } | undefined;
  #closed = false;
  /** Where search passes run when not on this thread (`searchOn`). */
  #searcher: SegmentSearcher | undefined;
  /** Set by `keepLoaded`: where a failed load ahead is logged, and the watch for other processes' commits. */
  #ahead: { log: PreloadLog; watch: NodeJS.Timeout } | undefined;

  /** `database` must be a SQLite file (its `location`); the tables come from the content migrations. */
  constructor(database: Database<ContentTables>) {
    this.#file = database.location;
  }

  #read(): SqliteCatalogReader {
    if (this.#closed) throw new Error('the content store is closed');
    if (!this.#reader) {
      const connection = openContentConnection(this.#file, 'reader');
      this.#reader = { connection, catalog: new SqliteCatalogReader(connection) };
    }
    return this.#reader.catalog;
  }

  /** Runs `use` on the reader; a closed store or a failing query becomes a rejected promise, not a throw. */
  #reading<T>(use: (reader: SqliteCatalogReader) => T): Promise<T> {
    return new Promise((resolve) => resolve(use(this.#read())));
  }

  #write(): SqliteCatalogWriter {
    if (this.#closed) throw new Error('the content store is closed');
    if (!this.#writer) {
      const connection = openContentConnection(this.#file, 'writer');
      this.#writer = { connection, catalog: new SqliteCatalogWriter(connection) };
    }
    return this.#writer.catalog;
  }

  async replaceCatalog(catalog: CatalogReplacement): Promise<number> {
    return this.#loadAfter(await this.#write().replaceCatalog(catalog));
  }

  async replaceShopCatalog(replacement: ShopCatalogReplacement): Promise<number> {
    return this.#loadAfter(await this.#write().replaceShopCatalog(replacement));
  }

  async applyShopDelta(delta: ShopCatalogDelta): Promise<DeltaCounts> {
    // The words it wrote go to the reader before the load: its first searches match the changed
    // shop's part of the lists they held from them, not from the text index.
    return this.#loadAfter(
      await applySqliteShopDelta(this.#write(), delta, (words) => this.#reader?.catalog.handOver(words)),
    );
  }

  search(query: SearchQuery): Promise<SearchPage> {
    const searcher = this.#searcher;
    return searcher
      ? new Promise((resolve) => resolve(this.#read().searchOn(searcher, query)))
      : this.#reading((reader) => reader.search(query));
  }

  /**
   * Loads the committed catalog now (its segments' columns and its vocabulary), so the first
   * search after a start finds it loaded (issue 30: loading was most of the first search at
   * 10 M articles); the server calls it before it listens. From then on, what this process
   * writes is loaded as soon as it is committed, before the write's promise settles (the first
   * search after a delta then finds the changed shop loaded), and SQLite, which announces no
   * changes, is asked every `SQLITE_WATCH_MS` whether another process committed one (an import
   * from the command line beside the server), which is loaded then. A failed load is logged, and
   * the next search loads the catalog instead.
   */
  keepLoaded(log: PreloadLog): Promise<void> {
    if (!this.#ahead && !this.#closed) {
      const watch = setInterval(() => this.#loadAhead(), SQLITE_WATCH_MS);
      watch.unref();
      this.#ahead = { log, watch };
    }
    this.#loadAhead(log);
    return Promise.resolve();
  }

  /** The committed catalog loaded now (nothing when it is the one loaded), a failure logged. */
  #loadAhead(log = this.#ahead?.log): void {
    if (!log) return;
    try {
      this.#read().preload();
    } catch (error) {
      log.warn({ err: error }, 'loading the catalog ahead of searches failed; the first search loads it');
    }
  }

  /** `result` of a write, once what it committed is loaded (with `keepLoaded`). */
  #loadAfter<T>(result: T): T {
    this.#loadAhead();
    return result;
  }

  /** Parts of match lists the reader took from the words its own deltas handed over, for tests. */
  get handedLists(): number {
    return this.#reader?.catalog.handedLists ?? 0;
  }

  /** The content hash of the catalog the reader has loaded (undefined before any), for tests. */
  get loadedHash(): string | undefined {
    return this.#reader?.catalog.loadedHash;
  }

  searchOn(searcher: SegmentSearcher | undefined): void {
    this.#searcher = searcher;
  }

  suggest(query: SuggestQuery): Promise<SuggestPage> {
    return this.#reading((reader) => reader.suggest(query));
  }

  findArticle(id: string): Promise<Article | undefined> {
    return this.#reading((reader) => reader.findArticle(id));
  }

  countArticles(): Promise<number> {
    return this.#reading((reader) => reader.countArticles());
  }

  listShops(limit: number, offset: number): Promise<{ total: number; shops: BusinessShop[] }> {
    return this.#reading((reader) => reader.listShops(limit, offset));
  }

  findShop(id: string): Promise<BusinessShop | undefined> {
    return this.#reading((reader) => reader.findShop(id));
  }

  async putShop(put: ShopPut): Promise<ShopWriteOutcome> {
    return this.#loadAfter(await new SqliteShopWriter(this.#write()).putShop(put));
  }

  async removeShop(removal: ShopRemoval): Promise<ShopRemovalOutcome> {
    return this.#loadAfter(await new SqliteShopWriter(this.#write()).removeShop(removal));
  }

  currentHash(): Promise<string | undefined> {
    return this.#reading((reader) => reader.currentHash());
  }

  shopVersions(): Promise<ReadonlyMap<string, string>> {
    return this.#reading((reader) => reader.shopVersions());
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#ahead?.watch);
    this.#ahead = undefined;
    await this.#writer?.catalog.idle();
    this.#reader?.connection.close();
    this.#writer?.connection.close();
    this.#reader = undefined;
    this.#writer = undefined;
  }
}
