import { sql, type Kysely } from 'kysely';
import { setTimeout as delay } from 'node:timers/promises';
import { openChangeBus, type ChangeBus, type Database, type ReadReplicas, type Unsubscribe } from '@triad/db';
import type { Article, BusinessShop } from '../../model/article.js';
import { parseStoredArticle } from '../../model/article-document.js';
import { withPricesText } from '../../model/document-prices.js';
import type { CatalogReplacement, PreloadLog, SearchBackend, ShopCatalogReplacement } from '../search-backend.js';
import type { SearchPage, SearchQuery } from '../search-query.js';
import type { SuggestPage, SuggestQuery } from '../suggest-words.js';
import { PostgresCatalogReader } from './postgres-catalog-reader.js';
import type { SegmentSearcher } from '../workers/search-worker-pool.js';
import { replicaReads, type ReadOn } from './replica-reads.js';
import { replacePostgresCatalog, replacePostgresShopCatalog } from './postgres-catalog-writer.js';
import { putPostgresShop, removePostgresShop } from './postgres-shop-writer.js';
import type { ShopPut, ShopRemoval, ShopRemovalOutcome, ShopWriteOutcome } from '../shop-changes.js';
import type { ContentTables } from '../../migrations/content-tables.js';
import { SHOP_HASH_END, SHOP_HASH_KEY } from '../shop-versions.js';
import type { DeltaCounts, ShopCatalogDelta } from '../search-backend.js';
import { applyPostgresShopDelta } from './postgres-shop-delta.js';
import type { PostgresArticleTables, PostgresContentTables } from './postgres-content-tables.js';
import { CATALOG_GENERATION_KEY } from './postgres-segment-writer.js';
import type { SqlExecutor } from './sql-executor.js';

/** Change bus topic of catalog changes; the payload is the new catalog generation. */
const CATALOG_TOPIC = 'content.catalog';

/** Loads of an announced generation a replica has not replayed yet, 0.2 s apart and then longer. */
const PRELOAD_ATTEMPTS = 5;

/**
 * PostgreSQL search (decision 0025): the SQLite engine's per-shop segments, stored in PostgreSQL
 * (column chunks and word postings as `bytea`) and searched in this process
 * (`PostgresCatalogReader`). Imports write rows and segment in one transaction under an advisory
 * lock; with `readFrom`, searches and reads go to streaming replicas.
 */
export class PostgresSearchBackend implements SearchBackend {
  readonly engine = 'postgres-segments';
  readonly #database: Database<ContentTables>;
  readonly #db: Kysely<PostgresContentTables>;
  readonly #reader: PostgresCatalogReader;
  #read: ReadOn;
  #primary: PostgresSearchBackend | undefined;
  readonly #bus: ChangeBus;
  #unsubscribe: Unsubscribe | undefined;
  /** The newest generation announced to `keepLoaded`. */
  #announced: string | undefined;
  /** Set by `keepLoaded`: where a failed load ahead of searches is logged. */
  #preloadLog: PreloadLog | undefined;
  /** Where search passes run when not on this thread (`searchOn`). */
  #searcher: SegmentSearcher | undefined;

  /**
   * `database` must be a PostgreSQL content store: its migrations created `PostgresArticleTables`.
   * `reader`: the loaded segments to share (a view of the same store).
   */
  constructor(database: Database<ContentTables>, reader = new PostgresCatalogReader()) {
    this.#database = database;
    this.#db = database.db.withTables<PostgresArticleTables>();
    this.#reader = reader;
    this.#read = (read) => read(this.#db);
    // Opens no connection until `keepLoaded` subscribes; publishing runs in the writing transaction.
    this.#bus = openChangeBus(database);
  }

  /**
   * Sends searches and reads to `replicas` from now on (writes stay on the primary); `primary`
   * then reads the primary, sharing the loaded segments.
   */
  readFrom(replicas: ReadReplicas<ContentTables>): void {
    this.#read = replicaReads(replicas);
    this.#primary = new PostgresSearchBackend(this.#database, this.#reader);
    this.#primary.searchOn(this.#searcher);
  }

  /** The store read from the primary, when reads go to replicas (`readFrom`). */
  get primary(): SearchBackend | undefined {
    return this.#primary;
  }

  replaceShopCatalog(replacement: ShopCatalogReplacement): Promise<number> {
    return this.#loadAfter(replacePostgresShopCatalog(this.#db, replacement, this.#announce));
  }

  replaceCatalog(catalog: CatalogReplacement): Promise<number> {
    return this.#loadAfter(replacePostgresCatalog(this.#db, catalog, this.#announce));
  }

  search(query: SearchQuery): Promise<SearchPage> {
    const searcher = this.#searcher;
    return this.#read((db) => this.#reader.search(db, query, searcher));
  }

  searchOn(searcher: SegmentSearcher | undefined): void {
    this.#searcher = searcher;
    this.#primary?.searchOn(searcher);
  }

  suggest(query: SuggestQuery): Promise<SuggestPage> {
    return this.#read((db) => this.#reader.suggest(db, query));
  }

  async findArticle(id: string): Promise<Article | undefined> {
    // The stored document with the prices a price delta kept beside it put in; the id compared as its index is.
    const row = await this.#read((db) =>
      db
        .selectFrom('content_articles as a')
        .leftJoin('content_article_prices as p', 'p.seq', 'a.seq')
        .select(['a.document', 'p.prices'])
        .where(sql`a.article_id collate "C"`, '=', id)
        .executeTakeFirst(),
    );
    return row ? parseStoredArticle(withPricesText(row.document, row.prices), id) : undefined;
  }

  async countArticles(): Promise<number> {
    const row = await this.#read((db) =>
      sql<{ n: string | null }>`select sum(article_count) as n from content_segments`.execute(db),
    );
    return Number(row.rows[0]?.n ?? 0);
  }

  async listShops(limit: number, offset: number): Promise<{ total: number; shops: BusinessShop[] }> {
    const [rows, total] = await this.#read((db) =>
      Promise.all([
        sql<{
          document: string;
        }>`select document from content_shops order by shop_id collate "C" limit ${limit} offset ${offset}`.execute(db),
        db
          .selectFrom('content_shops')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst(),
      ]),
    );
    return { total: Number(total?.n ?? 0), shops: rows.rows.map((r) => JSON.parse(r.document) as BusinessShop) };
  }

  async findShop(id: string): Promise<BusinessShop | undefined> {
    const row = await this.#read((db) =>
      db.selectFrom('content_shops').select('document').where('shop_id', '=', id).executeTakeFirst(),
    );
    return row ? (JSON.parse(row.document) as BusinessShop) : undefined;
  }

  putShop(put: ShopPut): Promise<ShopWriteOutcome> {
    return putPostgresShop(this.#db, put);
  }

  removeShop(removal: ShopRemoval): Promise<ShopRemovalOutcome> {
    return this.#loadAfter(removePostgresShop(this.#db, removal, this.#announce));
  }

  async currentHash(): Promise<string | undefined> {
    const row = await this.#read((db) =>
      db.selectFrom('content_meta').select('meta_value').where('meta_key', '=', 'current_hash').executeTakeFirst(),
    );
    return row?.meta_value;
  }

  applyShopDelta(delta: ShopCatalogDelta): Promise<DeltaCounts> {
    // The patched segment's columns to this process's reader: its load after the commit takes them.
    return this.#loadAfter(
      applyPostgresShopDelta(this.#db, delta, this.#announce, (segment) => this.#reader.handOver(segment)),
    );
  }

  async shopVersions(): Promise<ReadonlyMap<string, string>> {
    const rows = await this.#read((db) =>
      db
        .selectFrom('content_meta')
        .select(['meta_key', 'meta_value'])
        .where('meta_key', '>=', SHOP_HASH_KEY)
        .where('meta_key', '<', SHOP_HASH_END)
        .execute(),
    );
    return new Map(rows.map((r) => [r.meta_key.slice(SHOP_HASH_KEY.length), r.meta_value]));
  }

  /**
   * Loads the catalog now, and again whenever a change is announced (`content.catalog` on the
   * change bus, sent at the commit of every import, delta and shop removal by any instance or
   * `triad catalog import`), so searches find it loaded. A replica that has not replayed the
   * announced change yet is asked again a few times; a failed load is logged, and the next
   * search loads what it needs as before.
   */
  async keepLoaded(log: PreloadLog): Promise<void> {
    if (this.#unsubscribe) return;
    this.#preloadLog = log;
    this.#unsubscribe = await this.#bus.subscribe(
      CATALOG_TOPIC,
      (generation) => this.#preload(generation),
      () => this.#preload(undefined),
    );
    this.#preload(undefined);
  }

  #preload(generation: string | undefined): void {
    this.#announced = generation;
    const run = async () => {
      for (let attempt = 1; ; attempt += 1) {
        const loaded = await this.#read((db) => this.#reader.refresh(db));
        // A newer change was announced meanwhile: its own preload runs.
        if (this.#announced !== generation) return;
        if (generation === undefined || loaded === generation) {
          // Loaded: the shops' vocabularies too (a delta's load patched those it changed; at a
          // start all are read).
          await this.#read((db) => this.#reader.loadVocabularies(db));
          return;
        }
        if (attempt === PRELOAD_ATTEMPTS) return;
        await delay(100 * 2 ** attempt);
      }
    };
    run().catch((error: unknown) =>
      this.#preloadLog?.warn(
        { err: error },
        'loading the changed catalog ahead of searches failed; the next search loads it',
      ),
    );
  }

  /**
   * `write`'s result once this process's reader has loaded what it committed, with `keepLoaded`
   * (as SQLite's writes do): the first search after a delta or an import then finds the changed
   * shop loaded and its vocabulary patched, where it used to load them itself (the announcement
   * on the bus came after the write's promise settled). Read from the primary, where the commit
   * is visible at once. A failed load is logged and the write's result stands; the announced
   * load, or the next search, loads it then.
   */
  async #loadAfter<T>(write: Promise<T>): Promise<T> {
    const result = await write;
    const log = this.#preloadLog;
    if (!log || !this.#unsubscribe) return result;
    try {
      await this.#reader.refresh(this.#db);
      await this.#reader.loadVocabularies(this.#db);
    } catch (error) {
      log.warn({ err: error }, 'loading the written catalog ahead of searches failed; the next search loads it');
    }
    return result;
  }

  /** Publishes the catalog's new generation on the bus, at the commit of `trx`. */
  readonly #announce = async (trx: SqlExecutor): Promise<void> => {
    const row = await sql<{ value: string }>`
      select meta_value as value from content_meta where meta_key = ${CATALOG_GENERATION_KEY}`.execute(trx);
    await this.#bus.publish(CATALOG_TOPIC, row.rows[0]?.value ?? '', trx);
  };

  async close(): Promise<void> {
    const unsubscribe = this.#unsubscribe;
    this.#unsubscribe = undefined;
    await unsubscribe?.();
    await this.#bus.close();
  }
}
