import type { AnyTables } from '@triad/db';
import { sql, type Kysely, type Migration } from 'kysely';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * PostgreSQL, vocabulary changes (decision 0052): a delta that patches a segment's postings
 * records, beside the new postings generation, the generation it patched and the article count
 * of every word whose postings it changed (0: the word is gone). A reader holding the vocabulary
 * of the previous generation patches it with these instead of reading every bucket's words again.
 * A segment built again (an import, a large delta, a release before this one) has no record for
 * its new generation: its readers read the whole vocabulary, as before. Nothing else reads the
 * table, so `down` drops it.
 */
export const addPostgresVocabularyChanges: Migration = {
  async up(db: AnyDb) {
    await sql`create table content_vocabulary_changes (
      slot integer not null,
      postings_generation text not null,
      previous_generation text not null,
      changes text not null,
      written bigserial not null,
      primary key (slot, postings_generation))`.execute(db);
  },
  async down(db: AnyDb) {
    await sql`drop table content_vocabulary_changes`.execute(db);
  },
};
