import type { Database } from '@triad/db';
import type { JWK } from 'jose';
import type { Kysely } from 'kysely';
import type { ContentTables } from '../search/content-tables.js';

/** `content_signing_keys` (migration 0006). */
export interface SigningKeysTable {
  kid: string;
  /** The public JWK as JSON. */
  jwk: string;
  /** ms since the epoch (bigint: a string on PostgreSQL). */
  created_at: number | string;
  /** When its instance last said it was alive. */
  seen_at: number | string;
}

type SigningKeyTables = ContentTables & {
  content_signing_keys: SigningKeysTable;
};

/** A public key with its id, as JWKS lists it. */
export type PublicKey = JWK & { readonly kid: string };

/**
 * The public signing keys of the built-in identity of every instance on this database. Only
 * public keys are stored: a private key never leaves its process.
 */
export class SigningKeyRepository {
  readonly #db: Kysely<SigningKeyTables>;

  constructor(database: Database<ContentTables>) {
    this.#db = database.db.withTables<{ content_signing_keys: SigningKeysTable }>();
  }

  /** Stores `key` (or marks it seen again) at `now`. */
  async publish(key: PublicKey, now: number): Promise<void> {
    await this.#db
      .insertInto('content_signing_keys')
      .values({ kid: key.kid, jwk: JSON.stringify(key), created_at: now, seen_at: now })
      .onConflict((oc) => oc.column('kid').doUpdateSet({ seen_at: now }))
      .execute();
  }

  async find(kid: string): Promise<PublicKey | undefined> {
    const row = await this.#db
      .selectFrom('content_signing_keys')
      .select('jwk')
      .where('kid', '=', kid)
      .executeTakeFirst();
    return row ? (JSON.parse(row.jwk) as PublicKey) : undefined;
  }

  /** Keys seen at or after `since`, oldest first. */
  async list(since: number): Promise<PublicKey[]> {
    const rows = await this.#db
      .selectFrom('content_signing_keys')
      .select('jwk')
      .where('seen_at', '>=', since)
      .orderBy('created_at')
      .orderBy('kid')
      .execute();
    return rows.map((row) => JSON.parse(row.jwk) as PublicKey);
  }

  /** Deletes keys not seen since `before`; returns how many. */
  async prune(before: number): Promise<number> {
    const result = await this.#db.deleteFrom('content_signing_keys').where('seen_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
