import type { AnyTables } from '@triad/db';
import { sql, type Kysely, type Migration } from 'kysely';
import { withPricesText } from '../../model/document-prices.js';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/** Rows put back into their documents per statement by `down`. */
const FOLD_PAGE = 1000;

/**
 * PostgreSQL, prices beside the document (decision 0052): a price delta writes an article's
 * price members (`documentPricesText`) and its two indexed prices into `content_article_prices`,
 * keyed by the article's `seq`, instead of rewriting its whole row in `content_articles`. Where
 * an article has such a row, its document is the stored one with these members put in
 * (`withPricesText`) and its indexed prices are these; every reader of a document or of the
 * indexed prices joins it. Rows that delete or move an article delete or move its prices too.
 * A release before this one does not know the table: `down` puts the prices back into the
 * documents and drops it.
 */
export const addPostgresArticlePrices: Migration = {
  async up(db: AnyDb) {
    await sql`create table content_article_prices (
      seq bigint primary key,
      prices text not null,
      price_scaled bigint not null,
      price_incl_scaled bigint not null)`.execute(db);
  },
  async down(db: AnyDb) {
    for (;;) {
      const rows = (
        await sql<{ seq: string; document: string; prices: string; p: string; pi: string }>`
          select a.seq, a.document, p.prices, p.price_scaled as p, p.price_incl_scaled as pi
          from content_article_prices p join content_articles a on a.seq = p.seq
          order by p.seq limit ${FOLD_PAGE}`.execute(db)
      ).rows;
      if (rows.length === 0) break;
      await sql`update content_articles as a
        set document = v.document, price_scaled = v.p, price_incl_scaled = v.pi
        from rows from (
            unnest(${rows.map((r) => r.seq)}::bigint[]),
            json_array_elements_text(${JSON.stringify(rows.map((r) => withPricesText(r.document, r.prices)))}::json),
            unnest(${rows.map((r) => r.p)}::bigint[]), unnest(${rows.map((r) => r.pi)}::bigint[]))
          as v (seq, document, p, pi)
        where a.seq = v.seq`.execute(db);
      await sql`delete from content_article_prices where seq = any(${rows.map((r) => r.seq)}::bigint[])`.execute(db);
    }
    await sql`drop table content_article_prices`.execute(db);
  },
};
