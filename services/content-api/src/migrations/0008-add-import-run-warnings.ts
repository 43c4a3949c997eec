import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * Adds `warnings` to `content_import_runs` (decision 0034): a JSON array of what an import's file
 * held that Triad does not keep, and the decisions it took, `[]` for the runs recorded before.
 */
export const addImportRunWarnings: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable('content_import_runs')
      .addColumn('warnings', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('content_import_runs').dropColumn('warnings').execute();
  },
};
