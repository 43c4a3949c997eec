import type { AnyTables } from '@triad/db';
import { sql, type Kysely, type Migration } from 'kysely';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * PostgreSQL, partial reloads (decision 0025): every column chunk gets a `version` from a
 * sequence, on insert by default and on every update by a trigger, so a reader that holds a
 * segment fetches only the chunks whose version it does not know (a price delta: the price
 * chunks). Each segment gets a `postings_generation`, new with every segment row, that a delta
 * leaving the postings as they were keeps: readers keep the postings they cached. Both change
 * without any writer naming them, so a release that does not know them (the one before) still
 * writes what this one reads correctly.
 */
export const versionPostgresChunks: Migration = {
  async up(db: AnyDb) {
    await sql`create sequence content_chunk_versions`.execute(db);
    await sql`alter table content_segment_columns
      add column version bigint not null default nextval('content_chunk_versions')`.execute(db);
    await sql`create function content_chunk_version_bump() returns trigger language plpgsql as $$
      begin
        new.version := nextval(format('%I.content_chunk_versions', tg_table_schema));
        return new;
      end $$`.execute(db);
    await sql`create trigger content_chunk_version before update on content_segment_columns
      for each row execute function content_chunk_version_bump()`.execute(db);
    await sql`alter table content_segments
      add column postings_generation text not null default gen_random_uuid()::text`.execute(db);
  },
  async down(db: AnyDb) {
    await sql`alter table content_segments drop column postings_generation`.execute(db);
    await sql`drop trigger content_chunk_version on content_segment_columns`.execute(db);
    await sql`drop function content_chunk_version_bump()`.execute(db);
    await sql`alter table content_segment_columns drop column version`.execute(db);
    await sql`drop sequence content_chunk_versions`.execute(db);
  },
};
