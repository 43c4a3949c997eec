import { sql, type Kysely, type Transaction } from 'kysely';
import type { Article, BusinessShop } from '../../model/article.js';
import { indexed, type IndexedArticle } from '../indexed-article.js';
import { toArticleRow, type ArticleRow } from '../article-row.js';
import type { CatalogReplacement, ShopCatalogReplacement } from '../search-backend.js';
import { checkShopArticle, checkShopId } from '../shop-article-check.js';
import type { PostgresContentTables } from './postgres-content-tables.js';
import { SHOP_HASH_END, SHOP_HASH_KEY } from '../shop-versions.js';
import { waitForStore, type StoreWait } from '../store-busy-error.js';

type ContentDb = Kysely<PostgresContentTables>;
type ContentTransaction = Transaction<PostgresContentTables>;

const INSERT_BATCH = 500;

/**
 * Replaces one shop's articles, record and facet counts in one transaction (readers see the old
 * or the new catalog). Repeated ids are found by the unique index (`on conflict do nothing`).
 */
export async function replacePostgresShopCatalog(db: ContentDb, replacement: ShopCatalogReplacement): Promise<number> {
  const { shop } = replacement;
  checkShopId(shop.id);
  return db.transaction().execute(async (trx) => {
    await takeImportLock(trx, replacement);
    await trx.deleteFrom('content_articles').where('shop_id', '=', shop.id).execute();
    await trx.deleteFrom('content_shops').where('shop_id', '=', shop.id).execute();
    await insertShop(trx, shop);
    const count = await insertArticles(
      trx,
      replacement.articles,
      (article) => checkShopArticle(article, shop.id),
      (article) => {
        if (!replacement.onDuplicate) throw new RangeError(`article ${article.id} appears twice`);
        replacement.onDuplicate(article);
      },
    );
    await trx.deleteFrom('content_facet_counts').where('shop_id', '=', shop.id).execute();
    await countFacets(trx, shop.id);
    await setCurrentHash(trx, replacement.hash);
    await setShopHash(trx, shop.id, replacement.hash);
    return count;
  });
}

/** Replaces the whole catalog (articles, shops, facet counts) in one transaction. */
export async function replacePostgresCatalog(db: ContentDb, catalog: CatalogReplacement): Promise<number> {
  for (const shop of catalog.shops) checkShopId(shop.id);
  const shopIds = new Set(catalog.shops.map((s) => s.id));
  return db.transaction().execute(async (trx) => {
    await takeImportLock(trx);
    await sql`truncate content_articles, content_shops, content_facet_counts`.execute(trx);
    for (const shop of catalog.shops) await insertShop(trx, shop);
    const count = await insertArticles(
      trx,
      catalog.articles,
      (article) => {
        if (!shopIds.has(article.shopId))
          throw new RangeError(
            `article ${article.id} belongs to ${article.shopId}, which is not among the catalog's shops`,
          );
        checkShopArticle(article, article.shopId);
      },
      (article) => {
        throw new RangeError(`article ${article.id} appears twice`);
      },
    );
    await countFacets(trx);
    await setCurrentHash(trx, catalog.hash);
    await sql`delete from content_meta where meta_key >= ${SHOP_HASH_KEY} and meta_key < ${SHOP_HASH_END}`.execute(trx);
    for (const shop of catalog.shops) await setShopHash(trx, shop.id, catalog.hash);
    return count;
  });
}

/** Advisory lock key of imports into the content tables (one at a time per database). */
const IMPORT_LOCK_KEY = 0x7472_6164; // 'trad'

/**
 * Takes the import lock for the rest of `trx`, waiting (`waitForStore`) while another
 * transaction holds it: two imports would otherwise interleave their deletes and inserts.
 */
export async function takeImportLock(trx: ContentTransaction, wait?: StoreWait): Promise<void> {
  await waitForStore(async () => {
    const { rows } = await sql<{
      taken: boolean;
    }>`select pg_try_advisory_xact_lock(${IMPORT_LOCK_KEY}) as taken`.execute(trx);
    return rows[0]?.taken === true;
  }, wait);
}

async function insertShop(trx: ContentTransaction, shop: BusinessShop): Promise<void> {
  await trx
    .insertInto('content_shops')
    .values({ shop_id: shop.id, name: shop.name, document: JSON.stringify(shop) })
    .execute();
}

/** Batched inserts; an id already stored (or earlier in the batch) goes to `duplicate` instead. */
async function insertArticles(
  trx: ContentTransaction,
  articles: Iterable<Article | IndexedArticle> | AsyncIterable<Article | IndexedArticle>,
  check: (article: IndexedArticle) => void,
  duplicate: (article: IndexedArticle) => void,
): Promise<number> {
  let count = 0;
  let batch = new Map<string, { article: IndexedArticle; row: ArticleRow }>();
  const flush = async () => {
    if (batch.size === 0) return;
    const entries = [...batch.values()];
    const inserted = await trx
      .insertInto('content_articles')
      .values(entries.map((e) => e.row))
      .onConflict((oc) => oc.column('article_id').doNothing())
      .returning('article_id')
      .execute();
    const stored = new Set(inserted.map((r) => r.article_id));
    for (const entry of entries) if (!stored.has(entry.article.id)) duplicate(entry.article);
    count += stored.size;
    batch = new Map();
  };
  for await (const item of articles) {
    const article = indexed(item);
    check(article);
    if (batch.has(article.id)) duplicate(article);
    else batch.set(article.id, { article, row: toArticleRow(article) });
    if (batch.size === INSERT_BATCH) await flush();
  }
  await flush();
  return count;
}

/** Recounts the facet values of one shop (or every shop) into `content_facet_counts`. */
export async function countFacets(trx: ContentTransaction, shopId?: string): Promise<void> {
  const only = shopId === undefined ? sql`` : sql`where shop_id = ${shopId}`;
  await sql`insert into content_facet_counts (shop_id, facet_name, value, article_count)
    select shop_id,
           case when grouping(manufacturer_name) = 0 then 'manufacturerName'
                when grouping(unspsc7) = 0 then 'UNSPSC-7'
                when grouping(unspsc9) = 0 then 'UNSPSC-9'
                else 'businessShopId' end,
           coalesce(manufacturer_name, unspsc7, unspsc9, shop_id),
           count(*)
    from content_articles ${only}
    group by grouping sets ((shop_id), (shop_id, manufacturer_name), (shop_id, unspsc7), (shop_id, unspsc9))
    having grouping(manufacturer_name) + grouping(unspsc7) + grouping(unspsc9) = 3
        or coalesce(manufacturer_name, unspsc7, unspsc9) is not null`.execute(trx);
}

/** Makes `hash` the current content version, inside `trx`. */
export async function setCurrentHash(trx: ContentTransaction, hash: string): Promise<void> {
  await sql`insert into content_meta (meta_key, meta_value) values ('current_hash', ${hash})
    on conflict (meta_key) do update set meta_value = excluded.meta_value`.execute(trx);
}

/** Makes `hash` the content version of shop `shopId` (`shopVersions`), inside `trx`. */
export async function setShopHash(trx: ContentTransaction, shopId: string, hash: string): Promise<void> {
  await sql`insert into content_meta (meta_key, meta_value) values (${SHOP_HASH_KEY + shopId}, ${hash})
    on conflict (meta_key) do update set meta_value = excluded.meta_value`.execute(trx);
}
