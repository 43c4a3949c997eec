import type { AnyTables } from '@triad/db';
import { sql, type Kysely, type Migration } from 'kysely';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * SQLite, partial reloads (decision 0052, "Chunks a delta leaves"): each column chunk gets a
 * `version`, written by a delta for the chunks it changed (a new one per delta) and left as it
 * was on the chunks it did not change, so a reader holding a segment reads again only the chunks
 * whose version it does not hold (a price delta: the price chunks). A chunk written without one
 * (null: by a full import, or by a release before this step) is always read again.
 */
export const versionSqliteChunks: Migration = {
  async up(db: AnyDb) {
    await sql`alter table content_segment_columns add column version text`.execute(db);
  },
  async down(db: AnyDb) {
    await sql`alter table content_segment_columns drop column version`.execute(db);
  },
};
