import type { Article, BusinessShop } from '../model/article.js';
import type { SearchPage, SearchQuery } from './search-query.js';

/** A whole catalog to store: replaces everything, readers see the old or the new one. */
export interface CatalogReplacement {
  readonly shops: readonly BusinessShop[];
  readonly articles: Iterable<Article>;
  /** The new content version (`hash` on the wire). */
  readonly hash: string;
}

/** One shop's catalog: replaces that shop's articles and record, other shops stay. */
export interface ShopCatalogReplacement {
  readonly shop: BusinessShop;
  /** Every article must have `shopId === shop.id`; read once, lazily (may be a stream). */
  readonly articles: Iterable<Article> | AsyncIterable<Article>;
  readonly hash: string;
}

/**
 * Storage and search of articles and shops. One implementation per engine (`sqlite/` FTS5,
 * `postgres/` tsvector + GIN); a distributed engine (OpenSearch) would be a third folder — see
 * docs/decisions/0010-content-api.md. Handlers only ever see this interface.
 */
export interface SearchBackend {
  /** Engine name for logs and benchmarks. */
  readonly engine: string;
  /** Replaces the whole catalog atomically and makes `hash` the current version. Returns the article count. */
  replaceCatalog(catalog: CatalogReplacement): Promise<number>;
  /**
   * Replaces one shop's catalog in one transaction (readers see the old or the new one) and makes
   * `hash` current. Returns the article count.
   *
   * @throws RangeError for an article of another shop (nothing is changed); errors of `articles`.
   */
  replaceShopCatalog(replacement: ShopCatalogReplacement): Promise<number>;
  search(query: SearchQuery): Promise<SearchPage>;
  findArticle(id: string): Promise<Article | undefined>;
  countArticles(): Promise<number>;
  listShops(limit: number, offset: number): Promise<{ readonly total: number; readonly shops: readonly BusinessShop[] }>;
  findShop(id: string): Promise<BusinessShop | undefined>;
  /** The current content version; undefined before the first catalog. */
  currentHash(): Promise<string | undefined>;
}
