import type { AnyTables } from '@triad/db';
import { sql, type Kysely, type Migration } from 'kysely';
import { addArticleColumns } from '../article-table.js';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * SQLite: `content_articles` keyed by an integer rowid (`seq`) plus the FTS5 table
 * `content_articles_fts` over `search_text` as external content (the text is stored once),
 * tokenized with unicode61 and diacritics removed so `weiss` finds `weiß`-free forms and `etiquettes` `étiquettes`.
 */
export const createSqliteArticles: Migration = {
  async up(db: AnyDb) {
    await addArticleColumns(
      db.schema.createTable('content_articles').addColumn('seq', 'integer', (c) => c.primaryKey()),
    ).execute();
    await db.schema.createIndex('content_articles_shop_idx').on('content_articles').columns(['shop_id']).execute();
    await db.schema
      .createIndex('content_articles_price_idx')
      .on('content_articles')
      .columns(['price_scaled'])
      .execute();
    // Facet columns: a facet over every article (no q) reads one of these indexes instead of the table.
    for (const column of ['manufacturer_name', 'unspsc7', 'unspsc9']) {
      await db.schema.createIndex(`content_articles_${column}_idx`).on('content_articles').columns([column]).execute();
    }
    await sql`create virtual table content_articles_fts using fts5(
      search_text, content='content_articles', content_rowid='seq', tokenize='unicode61 remove_diacritics 2')`.execute(
      db,
    );
  },
  async down(db: AnyDb) {
    await sql`drop table content_articles_fts`.execute(db);
    await db.schema.dropTable('content_articles').execute();
  },
};
