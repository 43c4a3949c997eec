import type { Database } from '@triad/db';
import type { Kysely } from 'kysely';
import type { TemplatesDatabase } from './templates-tables.js';

/** A stored application certificate: the private key as stored (sealed). */
export interface StoredClientCertificate {
  readonly certificatePem: string;
  readonly privateKeySealed: string;
  readonly applicationUri: string;
}

/**
 * `opcua_client_certificates` and `opcua_trusted_servers` (decision 0048). Both writes keep the
 * first row written: when several instances make a certificate or see a server at once, every one
 * reads back the same winner.
 */
export class OpcuaCertificateRepository {
  readonly #db: Kysely<TemplatesDatabase>;

  constructor(database: Database<TemplatesDatabase>) {
    this.#db = database.db;
  }

  /** The certificate stored under `name`, or undefined. */
  async clientCertificate(name: string): Promise<StoredClientCertificate | undefined> {
    const row = await this.#db
      .selectFrom('opcua_client_certificates')
      .select(['certificate_pem', 'private_key_sealed', 'application_uri'])
      .where('name', '=', name)
      .executeTakeFirst();
    return row === undefined
      ? undefined
      : {
          certificatePem: row.certificate_pem,
          privateKeySealed: row.private_key_sealed,
          applicationUri: row.application_uri,
        };
  }

  /** Stores `certificate` under `name` unless one is there; returns the one stored (the first written). */
  async keepClientCertificate(
    name: string,
    certificate: StoredClientCertificate,
    now = Date.now(),
  ): Promise<StoredClientCertificate> {
    await this.#db
      .insertInto('opcua_client_certificates')
      .values({
        name,
        certificate_pem: certificate.certificatePem,
        private_key_sealed: certificate.privateKeySealed,
        application_uri: certificate.applicationUri,
        created_at: now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    return (await this.clientCertificate(name)) ?? certificate;
  }

  /** The thumbprint trusted for `endpoint`: the stored one, or `thumbprint` stored now when there is none. */
  async trustOnFirstUse(endpoint: string, thumbprint: string, now = Date.now()): Promise<string> {
    await this.#db
      .insertInto('opcua_trusted_servers')
      .values({ endpoint, thumbprint, trusted_at: now })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const row = await this.#db
      .selectFrom('opcua_trusted_servers')
      .select('thumbprint')
      .where('endpoint', '=', endpoint)
      .executeTakeFirst();
    return row?.thumbprint ?? thumbprint;
  }
}
