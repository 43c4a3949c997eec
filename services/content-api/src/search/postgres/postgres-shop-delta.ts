import { sql, type Kysely, type Transaction } from 'kysely';
import { encodeArticleDocument, parseStoredArticle, withDocumentPrices } from '../../model/article-document.js';
import { articlePriceFields } from '../article-index-fields.js';
import { toArticleRow } from '../article-row.js';
import { indexed } from '../indexed-article.js';
import type { CatalogChange, DeltaCounts, ShopCatalogDelta } from '../search-backend.js';
import { checkShopArticle, checkShopId } from '../shop-article-check.js';
import { countFacets, setCurrentHash, setShopHash, takeImportLock } from './postgres-catalog-writer.js';
import type { PostgresContentTables } from './postgres-content-tables.js';

type PriceChange = CatalogChange & { readonly kind: 'prices' };

/** Price changes looked up and written together: two statements per batch instead of two per change. */
const PRICE_BATCH = 1000;

/**
 * Applies a delta to one shop in one transaction (after the import lock): upserts by article id,
 * deletes, price changes (in batches of consecutive ones: the stored documents read, their
 * prices put in, the documents and price columns written); then the shop's facet counts are
 * counted again and its version set.
 */
export async function applyPostgresShopDelta(
  db: Kysely<PostgresContentTables>,
  delta: ShopCatalogDelta,
): Promise<DeltaCounts> {
  const { shop } = delta;
  checkShopId(shop.id);
  return db.transaction().execute(async (trx) => {
    await takeImportLock(trx, delta);
    await trx
      .insertInto('content_shops')
      .values({ shop_id: shop.id, name: shop.name, document: JSON.stringify(shop) })
      .onConflict((oc) => oc.column('shop_id').doNothing())
      .execute();
    let added = 0;
    let updated = 0;
    let deleted = 0;
    let prices: PriceChange[] = [];
    const batched = new Set<string>();
    const flush = async () => {
      updated += await applyPrices(trx, shop.id, prices, delta.onUnknown);
      prices = [];
      batched.clear();
    };
    for await (const change of delta.changes) {
      if (change.kind === 'prices') {
        // A second change of the same article applies on top of the first one.
        if (batched.has(change.articleId)) await flush();
        prices.push(change);
        batched.add(change.articleId);
        if (prices.length === PRICE_BATCH) await flush();
        continue;
      }
      await flush();
      if (change.kind === 'upsert') {
        const article = indexed(change.article);
        checkShopArticle(article, shop.id);
        const row = toArticleRow(article);
        const { article_id: _id, ...rest } = row;
        const stored = await trx
          .selectFrom('content_articles')
          .select('seq')
          .where('article_id', '=', article.id)
          .executeTakeFirst();
        if (stored) {
          await trx.updateTable('content_articles').set(rest).where('seq', '=', stored.seq).execute();
          updated += 1;
        } else {
          await trx.insertInto('content_articles').values(row).execute();
          added += 1;
        }
        continue;
      }
      const stored = await trx
        .selectFrom('content_articles')
        .select('seq')
        .where('article_id', '=', change.articleId)
        .where('shop_id', '=', shop.id)
        .executeTakeFirst();
      if (!stored) {
        delta.onUnknown?.(change);
        continue;
      }
      await trx.deleteFrom('content_articles').where('seq', '=', stored.seq).execute();
      deleted += 1;
    }
    await flush();
    delta.beforeCommit?.();
    await trx.deleteFrom('content_facet_counts').where('shop_id', '=', shop.id).execute();
    await countFacets(trx, shop.id);
    await setCurrentHash(trx, delta.hash);
    await setShopHash(trx, shop.id, delta.hash);
    return { added, updated, deleted };
  });
}

/** Applies price changes of distinct articles; returns how many articles it changed. */
async function applyPrices(
  trx: Transaction<PostgresContentTables>,
  shopId: string,
  changes: readonly PriceChange[],
  onUnknown: ((change: CatalogChange) => void) | undefined,
): Promise<number> {
  if (changes.length === 0) return 0;
  const stored = await trx
    .selectFrom('content_articles')
    .select(['seq', 'article_id', 'document'])
    .where(
      'article_id',
      'in',
      changes.map((c) => c.articleId),
    )
    .where('shop_id', '=', shopId)
    .execute();
  const byId = new Map(stored.map((row) => [row.article_id, row]));
  const rows = [];
  for (const change of changes) {
    const row = byId.get(change.articleId);
    if (!row) {
      onUnknown?.(change);
      continue;
    }
    let put = withDocumentPrices(row.document, change.prices);
    if (!put) {
      const article = { ...parseStoredArticle(row.document, change.articleId), ...change.prices };
      put = { document: encodeArticleDocument(article), priced: article };
    }
    const fields = articlePriceFields(put.priced);
    rows.push(
      sql`(${row.seq}::bigint, ${put.document}, ${fields.priceScaled}::bigint, ${fields.priceInclScaled}::bigint)`,
    );
  }
  if (rows.length === 0) return 0;
  await sql`update content_articles as a
    set document = v.document, price_scaled = v.price_scaled, price_incl_scaled = v.price_incl_scaled
    from (values ${sql.join(rows)}) as v (seq, document, price_scaled, price_incl_scaled)
    where a.seq = v.seq`.execute(trx);
  return rows.length;
}
