import type { Kysely } from 'kysely';
import { parseStoredArticle } from '../../model/article-document.js';
import { toArticleRow } from '../article-row.js';
import { indexArticle, indexed } from '../indexed-article.js';
import type { DeltaCounts, ShopCatalogDelta } from '../search-backend.js';
import { checkShopArticle, checkShopId } from '../shop-article-check.js';
import { countFacets, setCurrentHash, setShopHash, takeImportLock } from './postgres-catalog-writer.js';
import type { PostgresContentTables } from './postgres-content-tables.js';

/**
 * Applies a delta to one shop in one transaction (after the import lock): upserts by article id,
 * deletes, price changes (the stored document read, its prices replaced, its row written again);
 * then the shop's facet counts are counted again and its version set.
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
    for await (const change of delta.changes) {
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
        .select(['seq', 'document'])
        .where('article_id', '=', change.articleId)
        .where('shop_id', '=', shop.id)
        .executeTakeFirst();
      if (!stored) {
        delta.onUnknown?.(change);
        continue;
      }
      if (change.kind === 'delete') {
        await trx.deleteFrom('content_articles').where('seq', '=', stored.seq).execute();
        deleted += 1;
      } else {
        const article = indexArticle({ ...parseStoredArticle(stored.document, change.articleId), ...change.prices });
        const { article_id: _id, ...rest } = toArticleRow(article);
        await trx.updateTable('content_articles').set(rest).where('seq', '=', stored.seq).execute();
        updated += 1;
      }
    }
    await trx.deleteFrom('content_facet_counts').where('shop_id', '=', shop.id).execute();
    await countFacets(trx, shop.id);
    await setCurrentHash(trx, delta.hash);
    await setShopHash(trx, shop.id, delta.hash);
    return { added, updated, deleted };
  });
}
