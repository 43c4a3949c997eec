import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

// A migration sees the database as it was at its point in history, not today's table types (Kysely convention).
type AnyDb = Kysely<AnyTables>;

/**
 * `api_tokens` (issue 16): the registry's API tokens. A token is shown once when created; only its
 * scrypt hash is stored. `revoked_at` set means it no longer works; rows are kept for the record.
 */
export const createApiTokens: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('api_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('secret_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .addColumn('revoked_at', 'bigint')
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('api_tokens').execute();
  },
};
