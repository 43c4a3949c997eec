import { sql, type Kysely } from 'kysely';
import type { ShopPut, ShopRemoval, ShopRemovalOutcome, ShopWriteOutcome } from '../shop-changes.js';
import { checkShopId } from '../shop-article-check.js';
import { SHOP_HASH_KEY } from '../shop-versions.js';
import { setCurrentHash, setShopHash, takeImportLock } from './postgres-catalog-writer.js';
import { dropPostgresSegment, type AnnounceCatalog } from './postgres-segment-writer.js';
import type { PostgresContentTables } from './postgres-content-tables.js';

type ContentDb = Kysely<PostgresContentTables>;

/**
 * Stores a shop record in one transaction; the stored row is locked first, so two changes of one
 * shop (or a change and an import) run one after the other.
 */
export async function putPostgresShop(db: ContentDb, put: ShopPut): Promise<ShopWriteOutcome> {
  const { shop, mode } = put;
  checkShopId(shop.id);
  return db.transaction().execute(async (trx) => {
    const stored = await trx
      .selectFrom('content_shops')
      .select('shop_id')
      .where('shop_id', '=', shop.id)
      .forUpdate()
      .executeTakeFirst();
    if (stored && mode === 'create') return 'exists';
    if (!stored && mode === 'update') return 'not-found';
    const inserted = await trx
      .insertInto('content_shops')
      .values({ shop_id: shop.id, name: shop.name, document: JSON.stringify(shop) })
      .onConflict((oc) => oc.column('shop_id').doUpdateSet({ name: shop.name, document: JSON.stringify(shop) }))
      .returning(sql<boolean>`xmax = 0`.as('created'))
      .executeTakeFirstOrThrow();
    // The shop's own version changes too: links pinned to its old terms must not stay cacheable.
    await setShopHash(trx, shop.id, put.hash);
    await setCurrentHash(trx, put.hash);
    return inserted.created ? 'created' : 'updated';
  });
}

/** Removes a shop record, and with `withArticles` its articles and segment, in one transaction. */
export async function removePostgresShop(
  db: ContentDb,
  removal: ShopRemoval,
  announce: AnnounceCatalog,
): Promise<ShopRemovalOutcome> {
  return db.transaction().execute(async (trx): Promise<ShopRemovalOutcome> => {
    // Segments change only under the import lock (slots, facet keys).
    await takeImportLock(trx);
    const stored = await trx
      .selectFrom('content_shops')
      .select('shop_id')
      .where('shop_id', '=', removal.id)
      .forUpdate()
      .executeTakeFirst();
    if (!stored) return { status: 'not-found' };
    const segment = (
      await sql<{ slot: number; articles: number }>`
        select slot, article_count as articles from content_segments where shop_id = ${removal.id}`.execute(trx)
    ).rows[0];
    const waiting = (
      await sql<{ n: string | number }>`
        select count(*) as n from content_waiting_articles where shop_id = ${removal.id}`.execute(trx)
    ).rows[0];
    const articles = (segment?.articles ?? 0) + Number(waiting?.n ?? 0);
    if (articles > 0 && !removal.withArticles) return { status: 'has-articles', articles };
    if (segment) await dropPostgresSegment(trx, segment.slot);
    await trx.deleteFrom('content_waiting_articles').where('shop_id', '=', removal.id).execute();
    await trx.deleteFrom('content_price_schedule').where('shop_id', '=', removal.id).execute();
    await trx.deleteFrom('content_shops').where('shop_id', '=', removal.id).execute();
    await trx
      .deleteFrom('content_meta')
      .where('meta_key', '=', SHOP_HASH_KEY + removal.id)
      .execute();
    await setCurrentHash(trx, removal.hash);
    await announce(trx);
    return { status: 'removed', articles };
  });
}
