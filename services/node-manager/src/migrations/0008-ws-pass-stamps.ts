import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

// A migration sees the database as it was at its point in history, not today's table types (Kysely convention).
type AnyDb = Kysely<AnyTables>;

/**
 * Adds `nm_ws_passes.stamp`: the user's session stamp when the pass was issued, so that a pass
 * dies with a password, role, rights or tags change and with the user's deletion on every
 * instance (issue 23). Nullable: the previous release keeps inserting without it, and such
 * passes are refused (clients fetch a new one).
 */
export const wsPassStamps: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('nm_ws_passes').addColumn('stamp', 'text').execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('nm_ws_passes').dropColumn('stamp').execute();
  },
};
