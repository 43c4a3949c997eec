import type { AnyTables } from '@triad/db';
import { sql, type Kysely, type Migration } from 'kysely';
import { createSqliteArticles } from './sqlite-articles-migration.js';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * SQLite, second layout (decision 0013): articles by seq (`slot * 2^32 + position`) holding only
 * what detail lookups and description sorting read; the words in a contentless FTS5 table without
 * positions (`detail=none`; rows deleted by seq range); one segment per shop with its filter,
 * facet and sort columns as chunked blobs; facet values dictionary-encoded. The first layout's
 * articles are kept as `content_articles_v1` (its indexes and text index dropped) and moved into
 * the new layout by `carryOverFirstLayout` when the store is next opened, so no catalog is lost.
 */
export const createSqliteSegments: Migration = {
  async up(db: AnyDb) {
    await sql`drop table if exists content_articles_fts`.execute(db);
    for (const index of ['shop', 'price', 'manufacturer_name', 'unspsc7', 'unspsc9']) {
      await sql`drop index if exists ${sql.id(`content_articles_${index}_idx`)}`.execute(db);
    }
    await sql`alter table content_articles rename to content_articles_v1`.execute(db);
    await sql`create table content_articles (
      seq integer primary key, article_id text not null, description text not null, document text not null)`.execute(
      db,
    );
    await sql`create unique index content_articles_id_idx on content_articles (article_id)`.execute(db);
    // The text is already `searchWords` joined by spaces: the ascii tokenizer splits at the spaces only.
    await sql`create virtual table content_article_words
      using fts5(words, content='', contentless_delete=1, detail=none, tokenize='ascii')`.execute(db);
    await sql`create table content_facet_values (
      value_key integer primary key, facet_name text not null, value text not null,
      unique (facet_name, value))`.execute(db);
    await sql`create table content_segments (
      slot integer primary key, shop_id text not null unique, generation text not null,
      article_count integer not null, word_total integer not null, byte_order text not null)`.execute(db);
    await sql`create table content_segment_columns (
      slot integer not null, name text not null, chunk integer not null, data blob not null,
      primary key (slot, name, chunk)) without rowid`.execute(db);
  },
  async down(db: AnyDb) {
    for (const table of [
      'content_segment_columns',
      'content_segments',
      'content_facet_values',
      'content_article_words',
      'content_articles',
      'content_articles_v1',
    ]) {
      await sql`drop table if exists ${sql.id(table)}`.execute(db);
    }
    await createSqliteArticles.up(db);
  },
};
