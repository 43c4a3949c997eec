import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * Creates `content_waiting_articles` (decision 0033): per shop, the articles kept but not
 * searchable because no price of theirs is valid now, as the records read, with the moment one
 * becomes valid (indexed: the server's timer asks for the earliest).
 */
export const createWaitingArticles: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('content_waiting_articles')
      .addColumn('shop_id', 'text', (c) => c.notNull())
      .addColumn('article_id', 'text', (c) => c.notNull())
      .addColumn('document', 'text', (c) => c.notNull())
      .addColumn('searchable_from', 'text')
      .addColumn('reason', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('content_waiting_articles_pkey', ['shop_id', 'article_id'])
      .execute();
    await db.schema
      .createIndex('content_waiting_articles_from')
      .on('content_waiting_articles')
      .column('searchable_from')
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('content_waiting_articles').execute();
  },
};
