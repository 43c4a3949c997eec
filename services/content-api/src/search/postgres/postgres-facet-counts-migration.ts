import type { AnyTables } from '@triad/db';
import { sql, type Kysely, type Migration } from 'kysely';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * PostgreSQL, second step (decision 0013): `content_facet_counts` (articles per shop and facet
 * value, kept by every import, filled here from the stored articles) answers searches without
 * words and filters; an index on `article_id collate "C"` serves the default id order.
 */
export const createPostgresFacetCounts: Migration = {
  async up(db: AnyDb) {
    await sql`create table content_facet_counts (
      shop_id text not null, facet_name text not null, value text not null, article_count bigint not null,
      primary key (shop_id, facet_name, value))`.execute(db);
    await sql`insert into content_facet_counts (shop_id, facet_name, value, article_count)
      select shop_id, 'businessShopId', shop_id, count(*) from content_articles group by shop_id
      union all select shop_id, 'manufacturerName', manufacturer_name, count(*) from content_articles
        where manufacturer_name is not null group by shop_id, manufacturer_name
      union all select shop_id, 'UNSPSC-7', unspsc7, count(*) from content_articles
        where unspsc7 is not null group by shop_id, unspsc7
      union all select shop_id, 'UNSPSC-9', unspsc9, count(*) from content_articles
        where unspsc9 is not null group by shop_id, unspsc9`.execute(db);
    await sql`create index content_articles_id_c_idx on content_articles (article_id collate "C")`.execute(db);
  },
  async down(db: AnyDb) {
    await sql`drop index content_articles_id_c_idx`.execute(db);
    await sql`drop table content_facet_counts`.execute(db);
  },
};
