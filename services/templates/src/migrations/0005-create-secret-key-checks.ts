import type { Kysely, Migration } from 'kysely';

// A migration sees the database as it was at its point in history, not today's table types (Kysely convention).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * `templates_secret_key_checks` (issue 23): the check value of the key sealing the device
 * secrets (service-kit `verifySecretKey`; never the key), so an instance started with another key
 * refuses to start instead of failing every device read.
 */
export const createSecretKeyChecks: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('templates_secret_key_checks')
      .addColumn('purpose', 'text', (c) => c.primaryKey())
      .addColumn('check_value', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('templates_secret_key_checks').execute();
  },
};
