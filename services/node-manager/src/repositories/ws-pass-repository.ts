import type { Kysely } from 'kysely';
import type { Database } from '@triad/db';
import type { NodeManagerDatabase } from './node-manager-tables.js';

/**
 * `nm_ws_passes`: WebSocket passes every instance of a shared database accepts (a client may
 * fetch its pass from one instance and open the socket on another). Keyed by the SHA-256 of the
 * pass, so the table never holds a usable pass.
 */
export class WsPassRepository {
  readonly #db: Kysely<NodeManagerDatabase>;

  constructor(database: Database<NodeManagerDatabase>) {
    this.#db = database.db;
  }

  /** Stores a pass (by its hash) until `expiresAt` (ms since the epoch); drops expired ones. */
  async insert(passHash: string, username: string, expiresAt: number, now: number): Promise<void> {
    await this.#db.deleteFrom('nm_ws_passes').where('expires_at', '<=', now).execute();
    await this.#db
      .insertInto('nm_ws_passes')
      .values({ pass_hash: passHash, username, expires_at: expiresAt })
      .execute();
  }

  /** The pass's user and deadline, if stored. */
  async find(passHash: string): Promise<{ username: string; expires: number } | undefined> {
    const row = await this.#db
      .selectFrom('nm_ws_passes')
      .select(['username', 'expires_at'])
      .where('pass_hash', '=', passHash)
      .executeTakeFirst();
    return row ? { username: row.username, expires: Number(row.expires_at) } : undefined;
  }
}
