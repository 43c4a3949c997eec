import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '@triad/db';
import type { Article, BusinessShop } from '../model/article.js';
import { toScaled } from '../model/decimal.js';
import { toArticleRow } from './article-row.js';
import type { CatalogReplacement, SearchBackend, ShopCatalogReplacement } from './search-backend.js';
import { FACET_BUCKET_LIMIT, type FacetName, type FilterExpression, type SearchPage, type SearchQuery, type SortKey } from './search-query.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are addressed by raw SQL here
type AnyDb = Kysely<any>;

/** How an engine matches words: the FROM clause, the WHERE condition and the score expression. */
export interface TextMatch {
  readonly from: RawBuilder<unknown>;
  readonly where: RawBuilder<unknown>;
  readonly score: RawBuilder<unknown>;
}

const FACET_COLUMNS: Readonly<Record<FacetName, string>> = {
  businessShopId: 'a.shop_id',
  manufacturerName: 'a.manufacturer_name',
  'UNSPSC-7': 'a.unspsc7',
  'UNSPSC-9': 'a.unspsc9',
};

const INSERT_BATCH = 500;

/**
 * What the SQL engines share: tables, filters, sorting, facets, shops and versions. An engine
 * supplies the word match (`textMatch`) and keeps its index current after a bulk load (`reindex`).
 */
export abstract class SqlSearchBackend implements SearchBackend {
  abstract readonly engine: string;
  protected readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  protected get db(): AnyDb {
    return this.database.db as AnyDb;
  }

  /** The match of `words` (never empty) against the `a` alias of `content_articles`. */
  protected abstract textMatch(words: readonly string[]): TextMatch;

  /** Brings the text index up to date after the article table was rewritten inside `trx`. */
  protected abstract reindex(trx: Transaction<unknown>): Promise<void>;

  /** Removes one shop's articles from the text index; runs before their rows are deleted. */
  protected abstract unindexShop(trx: Transaction<unknown>, shopId: string): Promise<void>;

  /** Adds one shop's articles to the text index; runs after their rows were inserted. */
  protected abstract indexShop(trx: Transaction<unknown>, shopId: string): Promise<void>;

  async replaceShopCatalog(replacement: ShopCatalogReplacement): Promise<number> {
    const { shop } = replacement;
    return this.db.transaction().execute(async (trx) => {
      await this.unindexShop(trx as Transaction<unknown>, shop.id);
      await trx.deleteFrom('content_articles').where('shop_id', '=', shop.id).execute();
      await trx.deleteFrom('content_shops').where('shop_id', '=', shop.id).execute();
      await trx.insertInto('content_shops').values({ shop_id: shop.id, name: shop.name, document: JSON.stringify(shop) }).execute();
      const count = await insertArticles(trx, replacement.articles, (article) => {
        if (article.shopId !== shop.id) throw new RangeError(`article ${article.id} belongs to ${article.shopId}, not ${shop.id}`);
      });
      await this.indexShop(trx as Transaction<unknown>, shop.id);
      await setCurrentHash(trx, replacement.hash);
      return count;
    });
  }

  async replaceCatalog(catalog: CatalogReplacement): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('content_articles').execute();
      await trx.deleteFrom('content_shops').execute();
      for (const shop of catalog.shops) {
        await trx.insertInto('content_shops').values({ shop_id: shop.id, name: shop.name, document: JSON.stringify(shop) }).execute();
      }
      const count = await insertArticles(trx, catalog.articles);
      await this.reindex(trx as Transaction<unknown>);
      await setCurrentHash(trx, catalog.hash);
      return count;
    });
  }

  async search(query: SearchQuery): Promise<SearchPage> {
    const match = query.words.length > 0 ? this.textMatch(query.words) : undefined;
    const from = match?.from ?? sql`content_articles a`;
    const conditions: RawBuilder<unknown>[] = [];
    if (match) conditions.push(match.where);
    if (query.shopIds.length > 0) conditions.push(sql`a.shop_id in (${sql.join(query.shopIds)})`);
    if (query.filter) conditions.push(compileFilter(query.filter));
    const where = conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
    const score = match?.score ?? sql`0`;
    const order = this.orderBy(query.sort, match !== undefined);
    const [hits, total, facets] = await Promise.all([
      query.limit === 0
        ? Promise.resolve([])
        : sql<{ document: string; score: number }>`select a.document as document, ${score} as score from ${from} ${where} order by ${order} limit ${query.limit} offset ${query.offset}`
            .execute(this.db)
            .then((r) => r.rows),
      sql<{ n: number | string }>`select count(*) as n from ${from} ${where}`.execute(this.db).then((r) => Number(r.rows[0]?.n ?? 0)),
      Promise.all(query.facets.map((name) => this.facet(name, from, conditions))),
    ]);
    return {
      total,
      hits: hits.map((row) => ({ article: JSON.parse(row.document) as Article, score: Number(row.score) })),
      facets,
    };
  }

  private async facet(facetName: FacetName, from: RawBuilder<unknown>, conditions: readonly RawBuilder<unknown>[]) {
    const column = sql.raw(FACET_COLUMNS[facetName]);
    const condition = sql`where ${sql.join([...conditions, sql`${column} is not null`], sql` and `)}`;
    const rows = await sql<{ value: string; n: number | string }>`select ${column} as value, count(*) as n from ${from} ${condition} group by ${column} order by n desc, ${column} ${sql.raw(`collate ${this.database.capabilities.binaryCollation}`)} limit ${FACET_BUCKET_LIMIT}`.execute(
      this.db,
    );
    return { facetName, buckets: rows.rows.map((r) => ({ value: r.value, count: Number(r.n) })) };
  }

  private orderBy(sort: readonly SortKey[], hasScore: boolean): RawBuilder<unknown> {
    const collate = sql.raw(`collate ${this.database.capabilities.binaryCollation}`);
    const keys = sort.length > 0 ? sort : hasScore ? [{ field: 'score' as const, descending: true }] : [];
    const parts: RawBuilder<unknown>[] = [];
    for (const key of keys) {
      const direction = sql.raw(key.descending ? 'desc' : 'asc');
      if (key.field === 'score') {
        if (hasScore) parts.push(sql`score ${direction}`);
      } else if (key.field === 'price') parts.push(sql`a.price_scaled ${direction}`);
      else if (key.field === 'description') parts.push(sql`a.description ${collate} ${direction}`);
      else if (key.field === 'manufacturerName') parts.push(sql`a.manufacturer_name ${collate} ${direction}`);
      else parts.push(sql`a.article_id ${collate} ${direction}`);
    }
    parts.push(sql`a.article_id ${collate} asc`);
    return sql.join(parts);
  }

  async findArticle(id: string): Promise<Article | undefined> {
    const row = await this.db.selectFrom('content_articles').select('document').where('article_id', '=', id).executeTakeFirst();
    return row ? (JSON.parse(row.document as string) as Article) : undefined;
  }

  async countArticles(): Promise<number> {
    const row = await this.db.selectFrom('content_articles').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async listShops(limit: number, offset: number): Promise<{ total: number; shops: BusinessShop[] }> {
    const collate = sql.raw(`collate ${this.database.capabilities.binaryCollation}`);
    const [rows, total] = await Promise.all([
      sql<{ document: string }>`select document from content_shops order by shop_id ${collate} limit ${limit} offset ${offset}`.execute(this.db),
      this.db.selectFrom('content_shops').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst(),
    ]);
    return { total: Number(total?.n ?? 0), shops: rows.rows.map((r) => JSON.parse(r.document) as BusinessShop) };
  }

  async findShop(id: string): Promise<BusinessShop | undefined> {
    const row = await this.db.selectFrom('content_shops').select('document').where('shop_id', '=', id).executeTakeFirst();
    return row ? (JSON.parse(row.document as string) as BusinessShop) : undefined;
  }

  async currentHash(): Promise<string | undefined> {
    const row = await this.db.selectFrom('content_meta').select('meta_value').where('meta_key', '=', 'current_hash').executeTakeFirst();
    return row ? String(row.meta_value) : undefined;
  }
}

async function insertArticles(trx: AnyDb, articles: Iterable<Article> | AsyncIterable<Article>, check?: (article: Article) => void): Promise<number> {
  let count = 0;
  let batch: ReturnType<typeof toArticleRow>[] = [];
  for await (const article of articles) {
    check?.(article);
    batch.push(toArticleRow(article));
    if (batch.length === INSERT_BATCH) {
      await trx.insertInto('content_articles').values(batch).execute();
      count += batch.length;
      batch = [];
    }
  }
  if (batch.length > 0) await trx.insertInto('content_articles').values(batch).execute();
  return count + batch.length;
}

async function setCurrentHash(trx: AnyDb, hash: string): Promise<void> {
  await trx.deleteFrom('content_meta').where('meta_key', '=', 'current_hash').execute();
  await trx.insertInto('content_meta').values({ meta_key: 'current_hash', meta_value: hash }).execute();
}

/** Translates a validated filter tree into a SQL condition over the `a` alias. */
export function compileFilter(expression: FilterExpression): RawBuilder<unknown> {
  switch (expression.type) {
    case 'And':
    case 'Or': {
      if (expression.operands.length === 0) return expression.type === 'And' ? sql`1 = 1` : sql`1 = 0`;
      const glue = expression.type === 'And' ? sql` and ` : sql` or `;
      return sql`(${sql.join(expression.operands.map(compileFilter), glue)})`;
    }
    case 'ExactStringMatchFilter':
      return expression.filterName === 'businessShopId' ? sql`a.shop_id = ${expression.value}` : sql`a.manufacturer_name = ${expression.value}`;
    case 'ExactReferenceFeatureMatchFilter':
      return expression.filterName === 'UNSPSC-7' ? sql`a.unspsc7 = ${expression.group}` : sql`a.unspsc9 = ${expression.group}`;
    case 'DecimalRangeFilter': {
      const column = sql.raw(expression.filterName === 'pricePerMinimumOrderQuantity' ? 'a.price_scaled' : 'a.price_incl_scaled');
      const parts: RawBuilder<unknown>[] = [];
      if (expression.lowerBound) parts.push(sql`${column} >= ${Number(toScaled(expression.lowerBound))}`);
      if (expression.upperBound) parts.push(sql`${column} <= ${Number(toScaled(expression.upperBound))}`);
      return parts.length > 0 ? sql`(${sql.join(parts, sql` and `)})` : sql`1 = 1`;
    }
  }
}
