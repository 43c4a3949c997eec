import type { AnyTables } from '@triad/db';
import { sql, type Kysely, type Migration } from 'kysely';
import { rebuildPostgresSegment } from './postgres-segment-writer.js';
import { SLOT_SPAN } from '../segments/segment-columns.js';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * PostgreSQL, segment layout (decision 0025): the SQLite backend's per-shop segments, stored in
 * PostgreSQL. `content_articles` keeps its columns (a delta rebuilds a shop's segment from them)
 * but loses the generated tsvector, its GIN index, the facet and price indexes and the identity:
 * `seq` becomes `slot * 2^32 + position`, one slot per shop. Beside it: the facet dictionary,
 * one row per segment, the segment columns as `bytea` chunks and the word postings in hashed
 * buckets (`word-postings.ts`). The facet counts table goes (segments count). Stored catalogs are
 * renumbered here and their segments built from their rows, so an upgrade keeps every catalog.
 */
export const createPostgresSegments: Migration = {
  async up(db: AnyDb) {
    await sql`alter table content_articles drop column search_vector`.execute(db);
    for (const index of ['shop', 'price', 'manufacturer_name', 'unspsc7', 'unspsc9', 'id_c'])
      await sql`drop index if exists ${sql.id(`content_articles_${index}_idx`)}`.execute(db);
    await sql`alter table content_articles drop constraint if exists content_articles_article_id_key`.execute(db);
    await sql`alter table content_articles alter column seq drop identity if exists`.execute(db);
    await sql`drop table if exists content_facet_counts`.execute(db);
    // Old seqs are identity values far below 2^32, new ones start at slot 1: no collision while renumbering.
    await sql`update content_articles a set seq = n.seq from (
        select seq as old,
          dense_rank() over (order by shop_id collate "C") * ${SLOT_SPAN}::bigint
            + row_number() over (partition by shop_id order by seq) - 1 as seq
        from content_articles) n
      where a.seq = n.old`.execute(db);
    // Ids compare by code point everywhere: one unique index serves lookups, repeats and the id order.
    await sql`alter table content_articles alter column article_id type text collate "C"`.execute(db);
    await sql`create unique index content_articles_id_idx on content_articles (article_id)`.execute(db);
    await sql`create table content_facet_values (
      value_key integer primary key, facet_name text not null, value text not null,
      unique (facet_name, value))`.execute(db);
    await sql`create table content_segments (
      slot integer primary key, shop_id text not null unique, generation text not null,
      article_count integer not null, word_total bigint not null, byte_order text not null,
      bucket_count integer not null)`.execute(db);
    await sql`create table content_segment_columns (
      slot integer not null, name text not null, chunk integer not null, data bytea not null,
      primary key (slot, name, chunk))`.execute(db);
    await sql`create table content_postings (
      slot integer not null, bucket integer not null, data bytea not null, primary key (slot, bucket))`.execute(db);
    // Chunks are read whole and hardly compress: no TOAST compression to pay for on every write and read.
    for (const table of ['content_segment_columns', 'content_postings'])
      await sql`alter table ${sql.id(table)} alter column data set storage external`.execute(db);
    const shops = await sql<{ shop_id: string; slot: string }>`
      select shop_id, min(seq) / ${SLOT_SPAN}::bigint as slot from content_articles group by shop_id`.execute(db);
    for (const shop of shops.rows) await rebuildPostgresSegment(db, shop.shop_id, Number(shop.slot), 'before-0010');
  },
  down() {
    return Promise.reject(
      new Error('the PostgreSQL segment layout cannot be undone: restore a backup or import again'),
    );
  },
};
