import { sql, type Kysely, type Transaction } from 'kysely';
import type { BusinessShop } from '../../model/article.js';
import { indexed } from '../indexed-article.js';
import type { CatalogReplacement, ShopCatalogReplacement } from '../search-backend.js';
import { catalogShopOf, checkShopArticle, checkShopId } from '../shop-article-check.js';
import type { PostgresContentTables } from './postgres-content-tables.js';
import {
  dropPostgresSegment,
  freeSlot,
  PostgresDictionary,
  PostgresSegmentLoad,
  type AnnounceCatalog,
} from './postgres-segment-writer.js';
import { SHOP_HASH_END, SHOP_HASH_KEY } from '../shop-versions.js';
import { waitForStore, type StoreWait } from '../store-busy-error.js';
import { isWaiting } from '../../model/waiting-article.js';
import { PostgresWaitingRows } from './postgres-waiting-rows.js';
import { PostgresPriceScheduleRows } from './postgres-price-schedule-rows.js';
import { IdFingerprints } from '../id-fingerprints.js';

type ContentDb = Kysely<PostgresContentTables>;
type ContentTransaction = Transaction<PostgresContentTables>;

/**
 * Replaces one shop's articles, record and segment in one transaction (readers see the old or the
 * new catalog): the old segment goes by seq range, the articles stream into multi-row inserts
 * and the new segment (`PostgresSegmentLoad`). Repeated ids are found by the fingerprints of this
 * import's ids (`IdFingerprints`: at most 8 MiB exact, then a 32 MiB filter), a hit confirmed against the
 * rows written (a shop's ids all start with `<shopId>:`, and its old rows are gone), so no insert fails.
 */
export async function replacePostgresShopCatalog(
  db: ContentDb,
  replacement: ShopCatalogReplacement,
  announce: AnnounceCatalog,
): Promise<number> {
  const { shop } = replacement;
  checkShopId(shop.id);
  return db.transaction().execute(async (trx) => {
    await takeImportLock(trx, replacement);
    const old = await sql<{ slot: number }>`select slot from content_segments where shop_id = ${shop.id}`.execute(trx);
    if (old.rows[0]) await dropPostgresSegment(trx, old.rows[0].slot);
    await putShopRecord(trx, shop);
    const load = new PostgresSegmentLoad(trx, await PostgresDictionary.load(trx), await freeSlot(trx), shop.id);
    // The shop's waiting articles are replaced with its searchable ones; an id is in one table only.
    const waiting = new PostgresWaitingRows(trx);
    await waiting.clear(shop.id);
    // So are its price dates: the catalog's articles bring their own.
    const schedule = new PostgresPriceScheduleRows(trx);
    await schedule.clear(shop.id);
    const seen = new IdFingerprints();
    /** Whether this import stored `id` already (the filter says maybe: rare, so the rows are written first). */
    const stored = async (id: string) => {
      await load.flush();
      await waiting.flush();
      const { rows } = await sql<{ stored: boolean }>`select
        exists (select 1 from content_articles where article_id collate "C" = ${id})
        or exists (select 1 from content_waiting_articles where shop_id = ${shop.id} and article_id = ${id})
        as stored`.execute(trx);
      return rows[0]?.stored === true;
    };
    for await (const item of replacement.articles) {
      const article = isWaiting(item) ? item : indexed(item);
      checkShopArticle(article, shop.id);
      if (!seen.add(article.id) && (await stored(article.id))) {
        if (!replacement.onDuplicate) throw new RangeError(`article ${article.id} appears twice`);
        replacement.onDuplicate(article);
        continue;
      }
      if (isWaiting(article)) await waiting.put(article);
      else {
        await load.add(article);
        if (article.priceSchedule) await schedule.put(shop.id, article.id, article.priceSchedule);
      }
    }
    await waiting.flush();
    await schedule.flush();
    await load.finish();
    await setCurrentHash(trx, replacement.hash);
    await setShopHash(trx, shop.id, replacement.hash);
    await announce(trx);
    return load.size;
  });
}

/** Replaces the whole catalog (articles, shops, segments) in one transaction; facet keys stay. */
export async function replacePostgresCatalog(
  db: ContentDb,
  catalog: CatalogReplacement,
  announce: AnnounceCatalog,
): Promise<number> {
  for (const shop of catalog.shops) checkShopId(shop.id);
  return db.transaction().execute(async (trx) => {
    await takeImportLock(trx);
    await sql`truncate content_articles, content_article_prices, content_shops, content_segments,
      content_segment_columns, content_postings, content_waiting_articles, content_price_schedule`.execute(trx);
    const dictionary = await PostgresDictionary.load(trx);
    const loads = new Map<string, PostgresSegmentLoad>();
    let slot = 1;
    for (const shop of catalog.shops) {
      await putShopRecord(trx, shop);
      if (!loads.has(shop.id)) loads.set(shop.id, new PostgresSegmentLoad(trx, dictionary, slot++, shop.id));
    }
    const seen = new Set<string>();
    const schedule = new PostgresPriceScheduleRows(trx);
    for (const item of catalog.articles) {
      const article = indexed(item);
      const load = catalogShopOf(article, loads);
      if (seen.has(article.id)) throw new RangeError(`article ${article.id} appears twice`);
      seen.add(article.id);
      await load.add(article);
      if (article.priceSchedule) await schedule.put(article.shopId, article.id, article.priceSchedule);
    }
    await schedule.flush();
    let count = 0;
    for (const load of loads.values()) {
      await load.finish();
      count += load.size;
    }
    await setCurrentHash(trx, catalog.hash);
    await sql`delete from content_meta where meta_key >= ${SHOP_HASH_KEY} and meta_key < ${SHOP_HASH_END}`.execute(trx);
    for (const shop of catalog.shops) await setShopHash(trx, shop.id, catalog.hash);
    await announce(trx);
    return count;
  });
}

/**
 * Advisory lock key of imports into the content tables: one at a time per store, the store being
 * the schema (stores in other schemas of the same database do not wait for each other).
 */
const IMPORT_LOCK_KEY = 0x7472_6164; // 'trad'

/**
 * Takes the import lock for the rest of `trx`, waiting (`waitForStore`) while another
 * transaction holds it: two imports would otherwise interleave their deletes and inserts.
 */
export async function takeImportLock(trx: ContentTransaction, wait?: StoreWait): Promise<void> {
  await waitForStore(async () => {
    const { rows } = await sql<{
      taken: boolean;
    }>`select pg_try_advisory_xact_lock(${IMPORT_LOCK_KEY}, hashtext(current_schema())) as taken`.execute(trx);
    return rows[0]?.taken === true;
  }, wait);
}

/** Stores (or replaces) a shop's record. */
async function putShopRecord(trx: ContentTransaction, shop: BusinessShop): Promise<void> {
  await sql`insert into content_shops (shop_id, name, document)
    values (${shop.id}, ${shop.name}, ${JSON.stringify(shop)})
    on conflict (shop_id) do update set name = excluded.name, document = excluded.document`.execute(trx);
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
