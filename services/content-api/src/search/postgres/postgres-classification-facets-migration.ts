import type { AnyTables } from '@triad/db';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Migration } from 'kysely';
import { ADDED_CLASSIFICATION_COLUMNS, fillClassificationColumns } from '../fill-classification-columns.js';
import { groupNamesColumn, touchCatalog } from './postgres-segment-writer.js';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * PostgreSQL, classification facets (decision 0032): `content_articles` gets the groups of the
 * `UNSPSC`, `ECLASS` and `ETIM` facets and the group names (`group_names`, JSON), which a delta
 * rebuilds segments from; facet values get a `label`; every stored segment gets the new columns.
 * All filled from the stored documents, so a stored catalog shows the new facets without being
 * imported again. Segments get a new generation: running readers load them again. Rows and
 * segments a release without these columns writes read as "no group" until imported again.
 */
export const addPostgresClassificationFacets: Migration = {
  async up(db: AnyDb) {
    await sql`alter table content_articles add column unspsc text, add column eclass text, add column etim text,
      add column group_names text`.execute(db);
    await sql`alter table content_facet_values add column label text`.execute(db);
    await fillClassificationColumns(db, async (page) => {
      await sql`update content_articles a set unspsc = v.unspsc, eclass = v.eclass, etim = v.etim,
          group_names = v.group_names
        from unnest(${page.map((r) => r.seq)}::bigint[], ${page.map((r) => r.fields.unspsc ?? null)}::text[],
          ${page.map((r) => r.fields.eclass ?? null)}::text[], ${page.map((r) => r.fields.etim ?? null)}::text[],
          ${page.map((r) => groupNamesColumn(r.fields.groupNames) ?? null)}::text[])
          as v (seq, unspsc, eclass, etim, group_names)
        where a.seq = v.seq`.execute(db);
    });
    await sql`update content_segments set generation = ${randomUUID()}`.execute(db);
    await touchCatalog(db);
  },
  async down(db: AnyDb) {
    for (const name of ADDED_CLASSIFICATION_COLUMNS)
      await sql`delete from content_segment_columns where name = ${name}`.execute(db);
    // Facet values stay: keys are never reused, and a release without these facets ignores them.
    await sql`alter table content_facet_values drop column label`.execute(db);
    await sql`alter table content_articles drop column unspsc, drop column eclass, drop column etim,
      drop column group_names`.execute(db);
  },
};
