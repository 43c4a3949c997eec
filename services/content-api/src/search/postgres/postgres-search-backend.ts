import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '@triad/db';
import type { Article, BusinessShop } from '../../model/article.js';
import { parseStoredArticle } from '../../model/article-document.js';
import { topBuckets } from '../facet-buckets.js';
import type { CatalogReplacement, SearchBackend, ShopCatalogReplacement } from '../search-backend.js';
import type { FacetCount, FacetName, SearchPage, SearchQuery, SortKey } from '../search-query.js';
import { compileFilter } from '../sql-filter.js';
import { replacePostgresCatalog, replacePostgresShopCatalog } from './postgres-catalog-writer.js';
import { putPostgresShop, removePostgresShop } from './postgres-shop-writer.js';
import type { ShopPut, ShopRemoval, ShopRemovalOutcome, ShopWriteOutcome } from '../shop-changes.js';
import type { ContentTables } from '../content-tables.js';
import { SHOP_HASH_END, SHOP_HASH_KEY } from '../shop-versions.js';
import type { DeltaCounts, ShopCatalogDelta } from '../search-backend.js';
import { applyPostgresShopDelta } from './postgres-shop-delta.js';
import type { PostgresArticleTables, PostgresContentTables } from './postgres-content-tables.js';

const FACET_COLUMNS: Readonly<Record<FacetName, string>> = {
  businessShopId: 'shop_id',
  manufacturerName: 'manufacturer_name',
  'UNSPSC-7': 'unspsc7',
  'UNSPSC-9': 'unspsc9',
};

/**
 * PostgreSQL search: generated tsvector + GIN, all words must match, score `ts_rank`. A search
 * is one read-only repeatable-read transaction (one snapshot even while an import commits): the
 * slice, and the total with all facets in one grouping-sets pass; without words and filters the
 * counts come from `content_facet_counts`, kept per shop by every import.
 */
export class PostgresSearchBackend implements SearchBackend {
  readonly engine = 'postgres-tsvector';
  readonly #db: Kysely<PostgresContentTables>;

  /** `database` must be a PostgreSQL content store: its migrations created `PostgresArticleTables`. */
  constructor(database: Database<ContentTables>) {
    this.#db = database.db.withTables<PostgresArticleTables>();
  }

  replaceShopCatalog(replacement: ShopCatalogReplacement): Promise<number> {
    return replacePostgresShopCatalog(this.#db, replacement);
  }

  replaceCatalog(catalog: CatalogReplacement): Promise<number> {
    return replacePostgresCatalog(this.#db, catalog);
  }

  async search(query: SearchQuery): Promise<SearchPage> {
    return this.#db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const words = query.words.length > 0 ? sql`plainto_tsquery('simple', ${query.words.join(' ')})` : undefined;
        const conditions: RawBuilder<unknown>[] = [];
        if (words) conditions.push(sql`a.search_vector @@ ${words}`);
        if (query.shopIds.length > 0) conditions.push(sql`a.shop_id in (${sql.join(query.shopIds)})`);
        if (query.filter) conditions.push(compileFilter(query.filter));
        const where = conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
        const counted =
          words || query.filter
            ? await countMatches(trx, where, query.facets)
            : await countFromFacetTable(trx, query.shopIds, query.facets);
        const hits =
          query.limit === 0 || query.offset >= counted.total
            ? []
            : (
                await sql<{ id: string; document: string; score: number }>`
                  select a.article_id as id, a.document as document,
                         ${words ? sql`ts_rank(a.search_vector, ${words})` : sql`0`} as score
                  from content_articles a ${where}
                  order by ${orderBy(query.sort, words !== undefined)}
                  limit ${query.limit} offset ${query.offset}`.execute(trx)
              ).rows;
        return {
          total: counted.total,
          facets: counted.facets,
          hits: hits.map((row) => ({ article: parseStoredArticle(row.document, row.id), score: Number(row.score) })),
        };
      });
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
    const row = await sql<{
      n: string | null;
    }>`select sum(article_count) as n from content_facet_counts where facet_name = 'businessShopId'`.execute(this.#db);
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

interface Counted {
  readonly total: number;
  readonly facets: FacetCount[];
}

/** Total and facets over the matching articles in one pass (`grouping sets`, one per facet plus the total). */
async function countMatches(
  trx: Transaction<PostgresContentTables>,
  where: RawBuilder<unknown>,
  facets: readonly FacetName[],
): Promise<Counted> {
  const sets = [sql`()`, ...facets.map((f) => sql`(${sql.raw(`a.${FACET_COLUMNS[f]}`)})`)];
  const groupings = facets.map((f, i) => {
    const column = sql.raw(`a.${FACET_COLUMNS[f]}`);
    return sql`grouping(${column}) as ${sql.raw(`g${i}`)}, ${column} as ${sql.raw(`v${i}`)}`;
  });
  const rows = (
    await sql<Record<string, string | number | null>>`
      select ${sql.join([...groupings, sql`count(*) as n`])} from content_articles a ${where}
      group by grouping sets (${sql.join(sets)})`.execute(trx)
  ).rows;
  let total = 0;
  const values = facets.map(() => new Map<string, number>());
  for (const row of rows) {
    const n = Number(row.n);
    const facet = facets.findIndex((_, i) => Number(row[`g${i}`]) === 0);
    if (facet === -1) total = n;
    // A null value (grouping() = 0) is the articles without one: the facet's '' bucket.
    else values[facet]!.set(row[`v${facet}`] === null ? '' : String(row[`v${facet}`]), n);
  }
  return { total, facets: facets.map((facetName, i) => ({ facetName, buckets: topBuckets(values[i]!) })) };
}

/**
 * Total and facets of every article of the given shops (all when empty), from the per-shop
 * counts; articles without a value are the `''` bucket.
 */
async function countFromFacetTable(
  trx: Transaction<PostgresContentTables>,
  shopIds: readonly string[],
  facets: readonly FacetName[],
): Promise<Counted> {
  const only = shopIds.length > 0 ? sql`where shop_id in (${sql.join(shopIds)})` : sql``;
  const rows = (
    await sql<{ facet_name: string; value: string; n: string }>`
      select facet_name, value, sum(article_count) as n from content_facet_counts ${only}
      group by facet_name, value`.execute(trx)
  ).rows;
  const values = new Map<string, Map<string, number>>();
  let total = 0;
  for (const row of rows) {
    const n = Number(row.n);
    if (row.facet_name === 'businessShopId') total += n;
    let facet = values.get(row.facet_name);
    if (!facet) values.set(row.facet_name, (facet = new Map<string, number>()));
    facet.set(row.value, n);
  }
  // The table holds no rows for articles without a value; each article has at most one value per
  // facet, so they are the total less the values counted: the facet's '' bucket.
  return {
    total,
    facets: facets.map((facetName) => {
      const counts = values.get(facetName) ?? new Map<string, number>();
      let counted = 0;
      for (const n of counts.values()) counted += n;
      if (total > counted) counts.set('', total - counted);
      return { facetName, buckets: topBuckets(counts) };
    }),
  };
}

function orderBy(sort: readonly SortKey[], hasScore: boolean): RawBuilder<unknown> {
  const keys = sort.length > 0 ? sort : hasScore ? [{ field: 'score' as const, descending: true }] : [];
  const parts: RawBuilder<unknown>[] = [];
  for (const key of keys) {
    const direction = sql.raw(key.descending ? 'desc' : 'asc');
    if (key.field === 'score') {
      if (hasScore) parts.push(sql`score ${direction}`);
    } else if (key.field === 'price') parts.push(sql`a.price_scaled ${direction}`);
    else if (key.field === 'description') parts.push(sql`a.description collate "C" ${direction}`);
    else if (key.field === 'manufacturerName') parts.push(sql`a.manufacturer_name collate "C" ${direction}`);
    else parts.push(sql`a.article_id collate "C" ${direction}`);
  }
  parts.push(sql`a.article_id collate "C" asc`);
  return sql.join(parts);
}
