import type { AnyTables } from '@triad/db';
import { sql, type Kysely, type Migration } from 'kysely';
import { ADDED_CLASSIFICATION_COLUMNS, fillClassificationColumns } from '../fill-classification-columns.js';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * SQLite, classification facets (decision 0032): facet values get a `label` (the group name a
 * catalog gave), and every stored segment gets the columns of the `UNSPSC`, `ECLASS` and `ETIM`
 * facets, filled from the stored documents, so a stored catalog shows the new facets without
 * being imported again.
 */
export const addSqliteClassificationFacets: Migration = {
  async up(db: AnyDb) {
    await sql`alter table content_facet_values add column label text`.execute(db);
    await fillClassificationColumns(db);
  },
  async down(db: AnyDb) {
    for (const name of ADDED_CLASSIFICATION_COLUMNS)
      await sql`delete from content_segment_columns where name = ${name}`.execute(db);
    // Facet values stay: keys are never reused, and a release without these facets ignores them.
    await sql`alter table content_facet_values drop column label`.execute(db);
  },
};
