import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/**
 * Creates `content_signing_keys`: the public key of every running instance's built-in identity,
 * so that a token issued by one instance is accepted by all of them (behind a load balancer).
 * Times are integer milliseconds since the epoch.
 */
export const createSigningKeys: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('content_signing_keys')
      .addColumn('kid', 'text', (c) => c.primaryKey())
      .addColumn('jwk', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('seen_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('content_signing_keys').execute();
  },
};
