import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * Adds `catalog` to `content_import_runs` (decision 0034): a JSON object of which catalog a
 * BMEcat file was and who sent it (`CatalogHeader`: `CATALOG_ID`, `CATALOG_VERSION` ...), null
 * for JSON Lines, for a file refused before its header was read, and for the runs recorded before.
 * Nullable, so the previous release's inserts go on working.
 */
export const addImportRunCatalog: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('content_import_runs').addColumn('catalog', 'text').execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('content_import_runs').dropColumn('catalog').execute();
  },
};
