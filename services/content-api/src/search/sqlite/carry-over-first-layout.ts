import { sql, type Kysely } from 'kysely';
import type { Database } from '@triad/db';
import { errorMessage } from '@triad/common';
import type { ContentTables } from '../../migrations/content-tables.js';
import { parseStoredArticle } from '../../model/article-document.js';
import type { Article } from '../../model/article.js';
import type { SearchBackend } from '../search-backend.js';

/** Where migration 0003 keeps the articles of SQLite's first layout until they are carried over. */
export const FIRST_LAYOUT_TABLE = 'content_articles_v1';

/** What `carryOverFirstLayout` did. */
export interface CarryOverReport {
  readonly shops: number;
  readonly articles: number;
  /** Shops whose articles could not be carried over (the old table is then kept). */
  readonly failed: readonly { readonly shopId: string; readonly reason: string }[];
}

const BATCH = 1000;

/**
 * Moves the articles stored in SQLite's first layout (kept by migration 0003 as
 * `content_articles_v1`) into the current one, shop by shop through `replaceShopCatalog` under
 * the current content version, so an upgrade loses no imported catalog and links stay valid.
 * The old table is dropped once every shop made it; a shop that fails (its record missing, an
 * article the current layout refuses) is reported and the table kept for another attempt.
 * Nothing to do (and undefined) on PostgreSQL or when the table is absent.
 */
export async function carryOverFirstLayout(
  database: Database<ContentTables>,
  backend: SearchBackend,
): Promise<CarryOverReport | undefined> {
  if (database.dialect !== 'sqlite') return undefined;
  const db = database.db;
  const present = await sql<{
    n: number;
  }>`select count(*) as n from sqlite_master where type = 'table' and name = ${FIRST_LAYOUT_TABLE}`.execute(db);
  if (Number(present.rows[0]?.n ?? 0) === 0) return undefined;
  const shopIds = (
    await sql<{
      shop_id: string;
    }>`select distinct shop_id from ${sql.table(FIRST_LAYOUT_TABLE)} order by shop_id`.execute(db)
  ).rows.map((r) => r.shop_id);
  const hash = (await backend.currentHash()) ?? 'carried-over';
  let articles = 0;
  const failed: { shopId: string; reason: string }[] = [];
  for (const shopId of shopIds) {
    const shop = await backend.findShop(shopId);
    if (!shop) {
      failed.push({ shopId, reason: 'no record of this shop in content_shops' });
      continue;
    }
    try {
      articles += await backend.replaceShopCatalog({ shop, articles: storedArticles(db, shopId), hash });
    } catch (error) {
      failed.push({ shopId, reason: errorMessage(error) });
    }
  }
  if (failed.length === 0) await sql`drop table ${sql.table(FIRST_LAYOUT_TABLE)}`.execute(db);
  return { shops: shopIds.length - failed.length, articles, failed };
}

/** One shop's stored articles in their stored order, read in batches. */
async function* storedArticles(db: Kysely<ContentTables>, shopId: string): AsyncIterable<Article> {
  let after = -1;
  for (;;) {
    const rows = (
      await sql<{ seq: number; article_id: string; document: string }>`
        select seq, article_id, document from ${sql.table(FIRST_LAYOUT_TABLE)}
        where shop_id = ${shopId} and seq > ${after} order by seq limit ${BATCH}`.execute(db)
    ).rows;
    for (const row of rows) yield parseStoredArticle(row.document, row.article_id);
    if (rows.length < BATCH) return;
    after = Number(rows[rows.length - 1]!.seq);
  }
}
