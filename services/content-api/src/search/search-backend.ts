import type { SegmentSearcher } from './workers/search-worker-pool.js';
import type { Article, ArticlePriceChange, BusinessShop } from '../model/article.js';
import type { IndexedArticle } from './indexed-article.js';
import type { SearchPage, SearchQuery } from './search-query.js';
import type { StoreWait } from './store-busy-error.js';
import type { ShopPut, ShopRemoval, ShopRemovalOutcome, ShopWriteOutcome } from './shop-changes.js';
import type { WaitingArticle } from '../model/waiting-article.js';
import type { SuggestPage, SuggestQuery } from './suggest-words.js';

/**
 * A whole catalog to store: replaces everything, readers see the old or the new one. Every
 * article must belong to one of `shops` and have the id `<shopId>:...`; shop ids hold no `:`.
 */
export interface CatalogReplacement extends StoreWait {
  readonly shops: readonly BusinessShop[];
  /** Articles, or already indexed by `indexArticle`. */
  readonly articles: Iterable<Article | IndexedArticle>;
  /** The new content version (`hash` on the wire). */
  readonly hash: string;
}

/**
 * One shop's catalog: replaces that shop's articles and record, other shops stay. While another
 * process imports into the same store, it waits (`StoreWait`).
 */
export interface ShopCatalogReplacement extends StoreWait {
  /** The shop; its id must not hold `:`. */
  readonly shop: BusinessShop;
  /**
   * Every article must have `shopId === shop.id` and the id `<shopId>:...`; read once, lazily
   * (may be a stream). Articles, or already indexed by `indexArticle` (an import indexes on
   * another thread than the one writing), or kept not searchable (`WaitingArticle`: they replace
   * the shop's waiting articles, in the same transaction).
   */
  readonly articles:
    Iterable<Article | IndexedArticle | WaitingArticle> | AsyncIterable<Article | IndexedArticle | WaitingArticle>;
  readonly hash: string;
  /**
   * Called with an article whose id was already stored by this replacement; the article is
   * skipped. Without it, such an article fails the replacement. The store's unique id index
   * finds repeats, so the caller need not remember the ids it has seen. Called as the store
   * takes that article, before it reads the next one.
   */
  readonly onDuplicate?: (article: IndexedArticle | WaitingArticle) => void;
  /**
   * Called by a store that counts the shop's words (SQLite) before it reads the first article:
   * an import then has its parse workers count them too (`markRunWords`, decision 0053).
   */
  readonly onCountsWords?: () => void;
}

/**
 * One change of a delta: store an article (added or replaced whole), keep one not searchable
 * (`wait`: out of search until a price is valid), delete one, or change its prices. An upsert
 * or a price change of a waiting article makes it searchable; a delete removes it.
 */
export type CatalogChange =
  | {
      readonly kind: 'upsert';
      readonly article: Article | IndexedArticle;
      /** Only when the article is waiting when the delta applies (the price timer's changes): else skipped. */
      readonly onlyIfWaiting?: boolean;
      /** Only when the article's price dates still say this `due_at` (the price timer's changes): else skipped. */
      readonly onlyIfDue?: string;
    }
  | {
      readonly kind: 'wait';
      readonly article: WaitingArticle;
      readonly onlyIfWaiting?: boolean;
      readonly onlyIfDue?: string;
    }
  | { readonly kind: 'delete'; readonly articleId: string }
  | { readonly kind: 'prices'; readonly articleId: string; readonly prices: ArticlePriceChange }
  /**
   * New prices with dates (a price update whose ladders end or start later): checked against the
   * article's record when applied; prices valid now replace the article's, ones to come are kept
   * and take effect at their date (decision 0033, "Prices that end while searchable").
   */
  | {
      readonly kind: 'dated-prices';
      readonly articleId: string;
      /** The price members of the update's record as read. */
      readonly record: Readonly<Record<string, unknown>>;
    };

/** Changes to one shop's catalog, applied in one transaction (readers see all of them or none). */
export interface ShopCatalogDelta extends StoreWait {
  /** The shop; stored when it has no record yet (an existing record is kept). */
  readonly shop: BusinessShop;
  /** In order; upserted articles must belong to `shop` (id `<shopId>:...`). Read once, lazily. */
  readonly changes: Iterable<CatalogChange> | AsyncIterable<CatalogChange>;
  readonly hash: string;
  /** Called with a `delete` or `prices` change naming an article the shop does not hold; it is skipped. */
  readonly onUnknown?: (change: CatalogChange) => void;
  /**
   * Called once every change is applied (and every unknown one reported), before the commit; an
   * error it throws rolls the delta back and is thrown by `applyShopDelta`. Changes may be applied
   * in batches, so only here has `onUnknown` seen them all.
   */
  readonly beforeCommit?: () => void;
  /**
   * Told how the shop's search segment followed the delta, on engines that keep one in the
   * database (PostgreSQL): price columns patched, the touched positions patched, or built again
   * from every row. For logs and tests.
   */
  readonly onSegment?: (how: 'prices' | 'patched' | 'rebuilt') => void;
  /**
   * Postings buckets a patch writes per statement (PostgreSQL; default 64, each statement sent
   * while the next buckets are patched). For tests: a low value writes a small shop's buckets in
   * several overlapped statements.
   */
  readonly bucketBatch?: number;
  /** The moment prices must be valid at when a waiting article gets prices (`prices` changes); default: now. */
  readonly now?: Date;
}

/**
 * What a delta did to the searchable articles: `added` (a waiting article made searchable is
 * `updated`), `updated`, `deleted` (a waiting article deleted counts too). `wait` changes are
 * counted by the caller.
 */
export interface DeltaCounts {
  readonly added: number;
  readonly updated: number;
  readonly deleted: number;
}

/**
 * Storage and search of articles and shops. One implementation per engine (`sqlite/`: FTS5 finds
 * the words; `postgres/`: word postings of our own), both searching per-shop segments held in
 * memory (`segments/`, decisions 0013 and 0025); a distributed engine (OpenSearch) would be a
 * third folder — see docs/decisions/0010-content-api.md. Handlers only ever see this interface.
 */
/** Where `keepLoaded` reports a load that failed (a pino logger fits). */
export interface PreloadLog {
  warn(object: object, message: string): void;
}

export interface SearchBackend {
  /** Engine name for logs and benchmarks. */
  readonly engine: string;
  /** Replaces the whole catalog atomically and makes `hash` the current version. Returns the article count. */
  replaceCatalog(catalog: CatalogReplacement): Promise<number>;
  /**
   * Replaces one shop's catalog in one transaction (readers see the old or the new one) and makes
   * `hash` current. Returns the article count.
   *
   * @throws RangeError for an article of another shop, a shop id with `:`, or a repeated id
   *   without `onDuplicate` (nothing is changed); StoreBusyError when another import held the
   *   store longer than `maxWaitMs`; errors of `articles`.
   */
  replaceShopCatalog(replacement: ShopCatalogReplacement): Promise<number>;
  /**
   * Applies changes to one shop's catalog in one transaction and makes `hash` the shop's version;
   * other shops (and, on SQLite, their segments) are untouched.
   *
   * @throws RangeError for an article of another shop; StoreBusyError; errors of `changes` (nothing is changed).
   */
  applyShopDelta(delta: ShopCatalogDelta): Promise<DeltaCounts>;
  search(query: SearchQuery): Promise<SearchPage>;
  /** Completions and corrections of the last word of `q` in one shop's words (`suggestWords`, issue 27). */
  suggest(query: SuggestQuery): Promise<SuggestPage>;
  findArticle(id: string): Promise<Article | undefined>;
  countArticles(): Promise<number>;
  listShops(
    limit: number,
    offset: number,
  ): Promise<{ readonly total: number; readonly shops: readonly BusinessShop[] }>;
  findShop(id: string): Promise<BusinessShop | undefined>;
  /**
   * Stores a shop record (its articles stay) in one transaction, after any import running in this
   * process, and makes `hash` current and the shop's version when it changed something.
   *
   * @throws RangeError for a shop id with `:` (nothing is changed).
   */
  putShop(put: ShopPut): Promise<ShopWriteOutcome>;
  /**
   * Removes a shop record, and with `withArticles` its articles and search data, in one
   * transaction after any import running in this process; makes `hash` current and drops the
   * shop's version when it removed.
   */
  removeShop(removal: ShopRemoval): Promise<ShopRemovalOutcome>;
  /**
   * The current version of the whole store: changes with every change of any shop (readers cache
   * by it); undefined before the first catalog.
   */
  currentHash(): Promise<string | undefined>;
  /**
   * Each shop's content version (`hash` of links to its articles and records): set by every import
   * of that shop, untouched by imports of other shops. Shops never imported are absent.
   */
  shopVersions(): Promise<ReadonlyMap<string, string>>;
  /**
   * The same store read from the PostgreSQL primary, when searches and reads go to streaming
   * replicas (`DATABASE_READ_URL`); undefined otherwise. A request naming a content version its
   * replica has not replayed yet is answered from here.
   */
  readonly primary?: SearchBackend | undefined;
  /** Releases connections the backend opened itself (not the `Database`). Idempotent. */
  /**
   * Keeps the searchable catalog loaded ahead of searches (now, and after every change any
   * instance announces), where the engine loads lazily across instances (PostgreSQL).
   */
  keepLoaded?(log: PreloadLog): Promise<void>;
  /**
   * Runs the search passes of later searches on `searcher` (worker threads sharing the loaded
   * columns, decision 0051); undefined: on the calling thread. The caller closes the searcher
   * after the backend.
   */
  searchOn?(searcher: SegmentSearcher | undefined): void;
  close(): Promise<void>;
}
