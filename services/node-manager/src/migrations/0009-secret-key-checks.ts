import type { Kysely, Migration } from 'kysely';

// A migration sees the database as it was at its point in history, not today's table types (Kysely convention).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Adds `nm_secret_key_checks`: per kind of secret, the check value of the key the stored secrets
 * are sealed with (service-kit `verifySecretKey`; a keyed hash of a fixed label, never the key),
 * so an instance started with another key refuses to start instead of failing every read (issue 23).
 */
export const secretKeyChecks: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('nm_secret_key_checks')
      .addColumn('purpose', 'text', (c) => c.primaryKey())
      .addColumn('check_value', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('nm_secret_key_checks').execute();
  },
};
