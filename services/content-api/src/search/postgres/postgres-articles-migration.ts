import type { AnyTables } from '@triad/db';
import { sql, type Kysely, type Migration } from 'kysely';
import { addArticleColumns } from '../article-table.js';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * PostgreSQL: `content_articles` with a stored generated `search_vector` (the `simple`
 * configuration: catalogs mix languages, so no stemming) and a GIN index on it.
 */
export const createPostgresArticles: Migration = {
  async up(db: AnyDb) {
    await addArticleColumns(
      db.schema
        .createTable('content_articles')
        .addColumn('seq', 'bigint', (c) => c.generatedByDefaultAsIdentity().primaryKey()),
    ).execute();
    await sql`alter table content_articles
      add column search_vector tsvector generated always as (to_tsvector('simple', search_text)) stored`.execute(db);
    await sql`create index content_articles_search_idx on content_articles using gin (search_vector)`.execute(db);
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
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('content_articles').execute();
  },
};
