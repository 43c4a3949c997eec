import { sql, type Kysely } from 'kysely';
import type { Database } from '@triad/db';
import type { Article, BusinessShop } from '../../model/article.js';
import { parseStoredArticle } from '../../model/article-document.js';
import type { CatalogReplacement, SearchBackend, ShopCatalogReplacement } from '../search-backend.js';
import type { SearchPage, SearchQuery } from '../search-query.js';
import { PostgresCatalogReader } from './postgres-catalog-reader.js';
import { replacePostgresCatalog, replacePostgresShopCatalog } from './postgres-catalog-writer.js';
import { putPostgresShop, removePostgresShop } from './postgres-shop-writer.js';
import type { ShopPut, ShopRemoval, ShopRemovalOutcome, ShopWriteOutcome } from '../shop-changes.js';
import type { ContentTables } from '../content-tables.js';
import { SHOP_HASH_END, SHOP_HASH_KEY } from '../shop-versions.js';
import type { DeltaCounts, ShopCatalogDelta } from '../search-backend.js';
import { applyPostgresShopDelta } from './postgres-shop-delta.js';
import type { PostgresArticleTables, PostgresContentTables } from './postgres-content-tables.js';

/**
 * PostgreSQL search (decision 0025): the SQLite engine's per-shop segments, stored in PostgreSQL
 * (column chunks and word postings as `bytea`) and searched in this process
 * (`PostgresCatalogReader`): one read-only repeatable-read transaction per search. Imports write
 * rows and segment in one transaction under an advisory lock.
 */
export class PostgresSearchBackend implements SearchBackend {
  readonly engine = 'postgres-segments';
  readonly #db: Kysely<PostgresContentTables>;
  readonly #reader: PostgresCatalogReader;

  /** `database` must be a PostgreSQL content store: its migrations created `PostgresArticleTables`. */
  constructor(database: Database<ContentTables>) {
    this.#db = database.db.withTables<PostgresArticleTables>();
    this.#reader = new PostgresCatalogReader();
  }

  replaceShopCatalog(replacement: ShopCatalogReplacement): Promise<number> {
    return replacePostgresShopCatalog(this.#db, replacement);
  }

  replaceCatalog(catalog: CatalogReplacement): Promise<number> {
    return replacePostgresCatalog(this.#db, catalog);
  }

  search(query: SearchQuery): Promise<SearchPage> {
    return this.#reader.search(this.#db, query);
  }

  async findArticle(id: string): Promise<Article | undefined> {
    const row = await this.#db
      .selectFrom('content_articles')
      .select('document')
      .where('article_id', '=', id)
      .executeTakeFirst();
    return row ? parseStoredArticle(row.document, id) : undefined;
  }

  async countArticles(): Promise<number> {
    const row = await sql<{ n: string | null }>`select sum(article_count) as n from content_segments`.execute(this.#db);
    return Number(row.rows[0]?.n ?? 0);
  }

  async listShops(limit: number, offset: number): Promise<{ total: number; shops: BusinessShop[] }> {
    const [rows, total] = await Promise.all([
      sql<{
        document: string;
      }>`select document from content_shops order by shop_id collate "C" limit ${limit} offset ${offset}`.execute(
        this.#db,
      ),
      this.#db
        .selectFrom('content_shops')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst(),
    ]);
    return { total: Number(total?.n ?? 0), shops: rows.rows.map((r) => JSON.parse(r.document) as BusinessShop) };
  }

  async findShop(id: string): Promise<BusinessShop | undefined> {
    const row = await this.#db
      .selectFrom('content_shops')
      .select('document')
      .where('shop_id', '=', id)
      .executeTakeFirst();
    return row ? (JSON.parse(row.document) as BusinessShop) : undefined;
  }

  putShop(put: ShopPut): Promise<ShopWriteOutcome> {
    return putPostgresShop(this.#db, put);
  }

  removeShop(removal: ShopRemoval): Promise<ShopRemovalOutcome> {
    return removePostgresShop(this.#db, removal);
  }

  async currentHash(): Promise<string | undefined> {
    const row = await this.#db
      .selectFrom('content_meta')
      .select('meta_value')
      .where('meta_key', '=', 'current_hash')
      .executeTakeFirst();
    return row?.meta_value;
  }

  applyShopDelta(delta: ShopCatalogDelta): Promise<DeltaCounts> {
    return applyPostgresShopDelta(this.#db, delta);
  }

  async shopVersions(): Promise<ReadonlyMap<string, string>> {
    const rows = await this.#db
      .selectFrom('content_meta')
      .select(['meta_key', 'meta_value'])
      .where('meta_key', '>=', SHOP_HASH_KEY)
      .where('meta_key', '<', SHOP_HASH_END)
      .execute();
    return new Map(rows.map((r) => [r.meta_key.slice(SHOP_HASH_KEY.length), r.meta_value]));
  }

  async close(): Promise<void> {}
}
