import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

// A migration sees the database as it was at its point in history, not today's table types (Kysely convention).
type AnyDb = Kysely<AnyTables>;

/**
 * The OPC UA driver's certificates, kept across restarts (issue 29, decision 0048):
 * `opcua_client_certificates` holds this service's application certificate (PEM) with its
 * private key sealed (`enc:v1:...`, the key that seals device secrets, purpose
 * `triad-templates:opcua-client-key`), one row per name (`default`); every instance on the
 * database presents the same certificate. `opcua_trusted_servers` holds, per endpoint URL, the
 * SHA-1 thumbprint of the server certificate trusted on first use.
 */
export const createOpcuaCertificates: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('opcua_client_certificates')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('certificate_pem', 'text', (c) => c.notNull())
      .addColumn('private_key_sealed', 'text', (c) => c.notNull())
      .addColumn('application_uri', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('opcua_trusted_servers')
      .addColumn('endpoint', 'text', (c) => c.primaryKey())
      .addColumn('thumbprint', 'text', (c) => c.notNull())
      .addColumn('trusted_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('opcua_trusted_servers').execute();
    await db.schema.dropTable('opcua_client_certificates').execute();
  },
};
