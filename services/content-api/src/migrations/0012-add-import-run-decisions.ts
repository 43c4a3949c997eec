import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * Adds `decisions` to `content_import_runs` (decision 0034): a JSON object of how an import took
 * the file's prices (`{defaultTaxUsed, priceTypesUsed}`), null for the runs recorded before.
 * Nullable, so the previous release's inserts go on working.
 */
export const addImportRunDecisions: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('content_import_runs').addColumn('decisions', 'text').execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('content_import_runs').dropColumn('decisions').execute();
  },
};
