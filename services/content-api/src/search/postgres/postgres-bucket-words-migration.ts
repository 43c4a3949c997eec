import type { AnyTables } from '@triad/db';
import { sql, type Kysely, type Migration } from 'kysely';
import { bucketVocabulary } from '../segments/word-postings.js';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * PostgreSQL, stored vocabulary (decision 0040, step 4): each postings bucket gets a `words`
 * column, its words and their article counts without positions (`bucketVocabulary`), written
 * with the bucket. Default matching's first search of a segment reads that column only, where it
 * decoded every bucket before. The buckets stored before get theirs here (a page of buckets at a
 * time); any a release without the column writes have none: the reader decodes those from
 * `data`, as before. A release that knows only
 * `data` and updates it would leave `words` stale; a trigger drops `words` whenever `data` is
 * set (and `words` not with it), so such a bucket falls back too. This release's delta sets
 * `words` in a statement of its own after `data`.
 */
/** Buckets read and given their words per statement by the migration. */
const FILL_PAGE = 64;

export const addPostgresBucketWords: Migration = {
  async up(db: AnyDb) {
    await sql`alter table content_postings add column words bytea`.execute(db);
    await sql`create function content_postings_words_stale() returns trigger language plpgsql as $$
      begin
        new.words := null;
        return new;
      end $$`.execute(db);
    await sql`create trigger content_postings_words_stale before update of data on content_postings
      for each row when (new.words is not distinct from old.words)
      execute function content_postings_words_stale()`.execute(db);
    let after = { slot: -1, bucket: -1 };
    for (;;) {
      const page = await sql<{ slot: number; bucket: number; data: Buffer }>`
        select slot, bucket, data from content_postings where (slot, bucket) > (${after.slot}, ${after.bucket})
        order by slot, bucket limit ${FILL_PAGE}`.execute(db);
      const last = page.rows[page.rows.length - 1];
      if (!last) break;
      const values = page.rows.map((r) => sql`(${r.slot}::int, ${r.bucket}::int, ${bucketVocabulary(r.data)}::bytea)`);
      await sql`update content_postings p set words = v.words
        from (values ${sql.join(values)}) as v (slot, bucket, words)
        where p.slot = v.slot and p.bucket = v.bucket`.execute(db);
      after = last;
    }
  },
  async down(db: AnyDb) {
    await sql`drop trigger content_postings_words_stale on content_postings`.execute(db);
    await sql`drop function content_postings_words_stale()`.execute(db);
    await sql`alter table content_postings drop column words`.execute(db);
  },
};
