import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * Creates `content_price_schedule` (decision 0033, "Prices that end while searchable"): per
 * shop, the searchable articles whose prices may change at a date (the ladder taken ends, or a
 * preferred one starts), with the record as read and that date (indexed: the server's timer asks
 * for the earliest). Articles without such a date have no row.
 */
export const createPriceSchedule: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('content_price_schedule')
      .addColumn('shop_id', 'text', (c) => c.notNull())
      .addColumn('article_id', 'text', (c) => c.notNull())
      .addColumn('document', 'text', (c) => c.notNull())
      .addColumn('due_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('content_price_schedule_pkey', ['shop_id', 'article_id'])
      .execute();
    await db.schema.createIndex('content_price_schedule_due').on('content_price_schedule').column('due_at').execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('content_price_schedule').execute();
  },
};
