import type { AnyTables } from '@triad/db';
import { sql, type Kysely, type Migration } from 'kysely';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * SQLite, the chunk versions without the chunks (decision 0052, "The first search after a
 * delta"): `version` was added after `data`, so reading a chunk's version walked the overflow
 * pages of its bytes, and a reader that took a delta read the whole changed segment from the
 * file to learn which chunks it already held. A covering index of the versions lets it read them
 * alone.
 */
export const indexSqliteChunkVersions: Migration = {
  async up(db: AnyDb) {
    await sql`create index content_segment_columns_version_idx
      on content_segment_columns (slot, name, chunk, version)`.execute(db);
  },
  async down(db: AnyDb) {
    await sql`drop index if exists content_segment_columns_version_idx`.execute(db);
  },
};
