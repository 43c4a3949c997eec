import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * Creates `content_import_runs`: one row per catalog import (its file, mode, times, outcome,
 * counts and first refused records), numbered per shop. Times are integer milliseconds since
 * the epoch (`bigint`); the refused records are a JSON array.
 */
export const createImportRuns: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('content_import_runs')
      .addColumn('shop_id', 'text', (c) => c.notNull())
      .addColumn('run_no', 'integer', (c) => c.notNull())
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('format', 'text', (c) => c.notNull())
      .addColumn('import_mode', 'text')
      .addColumn('started_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('refusal', 'text')
      .addColumn('records', 'integer', (c) => c.notNull())
      .addColumn('imported', 'integer', (c) => c.notNull())
      .addColumn('added', 'integer')
      .addColumn('updated', 'integer')
      .addColumn('deleted', 'integer', (c) => c.notNull())
      .addColumn('already_absent', 'integer', (c) => c.notNull())
      .addColumn('refused', 'integer', (c) => c.notNull())
      .addColumn('refused_records', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('content_import_runs_pk', ['shop_id', 'run_no'])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('content_import_runs').execute();
  },
};
