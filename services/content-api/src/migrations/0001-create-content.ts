import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * Creates the engine-neutral tables: `content_shops` (one row per business shop, its JSON
 * document) and `content_meta` (key/value; `current_hash` is the current content version).
 * The article table and its text index belong to the engine (`search/<engine>/`).
 */
export const createContent: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('content_shops')
      .addColumn('shop_id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('document', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('content_meta')
      .addColumn('meta_key', 'text', (c) => c.primaryKey())
      .addColumn('meta_value', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('content_meta').execute();
    await db.schema.dropTable('content_shops').execute();
  },
};
