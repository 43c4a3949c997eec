import type { AnyTables } from '@triad/db';
import { sql, type Kysely, type Migration } from 'kysely';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * SQLite, each shop segment's words (decision 0040, "The 1 M run"): the words of the shop's
 * articles and how many articles hold each (`ShopWordCounts`), written with the segment, so
 * suggestions for some shops count in memory instead of asking FTS5 once per candidate word and
 * shop. `generation` is the segment's: a row of another generation is not used. Segments stored
 * before this step have no row; their suggestions count with FTS5 until the shop is imported again.
 */
export const addSqliteSegmentWords: Migration = {
  async up(db: AnyDb) {
    await sql`create table content_segment_words (
      slot integer primary key, generation text not null, words blob not null)`.execute(db);
  },
  async down(db: AnyDb) {
    await sql`drop table content_segment_words`.execute(db);
  },
};
