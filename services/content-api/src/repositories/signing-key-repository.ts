import type { Database } from '@triad/db';
import type { JWK } from 'jose';
import { sql, type Kysely } from 'kysely';
import type { ContentTables } from '../migrations/content-tables.js';

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
  readonly #sqlite: boolean;

  constructor(database: Database<ContentTables>) {
    this.#db = database.db.withTables<{ content_signing_keys: SigningKeysTable }>();
    this.#sqlite = database.dialect === 'sqlite';
  }

  /**
   * Stores `key` (or marks it seen again) at `now`. On SQLite it does not wait for the write lock
   * (an import may hold it for minutes, and SQLite's busy wait would block the event loop).
   *
   * @throws the driver's SQLITE_BUSY error while another connection holds the write lock.
   */
  async publish(key: PublicKey, now: number): Promise<void> {
    await this.#withoutBusyWait((db) =>
      db
        .insertInto('content_signing_keys')
        .values({ kid: key.kid, jwk: JSON.stringify(key), created_at: now, seen_at: now })
        .onConflict((oc) => oc.column('kid').doUpdateSet({ seen_at: now }))
        .execute(),
    );
  }

  /** Runs a write on SQLite with `busy_timeout` 0 for its duration (one connection, held throughout). */
  async #withoutBusyWait<T>(work: (db: Kysely<SigningKeyTables>) => Promise<T>): Promise<T> {
    if (!this.#sqlite) return work(this.#db);
    return this.#db.connection().execute(async (db) => {
      const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(db);
      const timeout = Math.trunc(Number(rows[0]?.timeout ?? 5000));
      await sql`pragma busy_timeout = 0`.execute(db);
      try {
        return await work(db);
      } finally {
        await sql.raw(`pragma busy_timeout = ${timeout}`).execute(db);
      }
    });
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
    const result = await this.#withoutBusyWait((db) =>
      db.deleteFrom('content_signing_keys').where('seen_at', '<', before).executeTakeFirst(),
    );
    return Number(result.numDeletedRows);
  }
}
