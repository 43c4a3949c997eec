import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

// A migration sees the database as it was at its point in history, not today's table types (Kysely convention).
type AnyDb = Kysely<AnyTables>;

/**
 * Adds `nm_node_facts`: the latest facts read of each UP node (JSON of `NodeFacts`), written by
 * the instance that monitors it, so that every instance of a shared PostgreSQL database shows
 * them and compares whole families (docs/decisions/0027). Unused on SQLite (facts stay in memory).
 */
export const nodeFacts: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('nm_node_facts')
      .addColumn('node_id', 'text', (c) => c.primaryKey())
      .addColumn('facts_json', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('nm_node_facts').execute();
  },
};
