import type { Kysely } from 'kysely';
import type { Database } from '@triad/db';
import type { NodeManagerDatabase } from './node-manager-tables.js';

/** A stored pass: whose, the user's session stamp when issued, and its deadline (ms since the epoch). */
export interface StoredWsPass {
  readonly username: string;
  /** Undefined for passes stored by a release before stamps (they are refused). */
  readonly stamp: string | undefined;
  readonly expires: number;
}

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

  /** Stores a pass (by its hash) until its deadline; drops expired ones. */
  async insert(passHash: string, pass: StoredWsPass, now: number): Promise<void> {
    await this.#db.deleteFrom('nm_ws_passes').where('expires_at', '<=', now).execute();
    await this.#db
      .insertInto('nm_ws_passes')
      .values({ pass_hash: passHash, username: pass.username, stamp: pass.stamp ?? null, expires_at: pass.expires })
      .execute();
  }

  /** The pass's user, stamp and deadline, if stored. */
  async find(passHash: string): Promise<StoredWsPass | undefined> {
    const row = await this.#db
      .selectFrom('nm_ws_passes')
      .select(['username', 'stamp', 'expires_at'])
      .where('pass_hash', '=', passHash)
      .executeTakeFirst();
    return row ? { username: row.username, stamp: row.stamp ?? undefined, expires: Number(row.expires_at) } : undefined;
  }

  /** Deletes every pass of `username`. */
  async deleteUser(username: string): Promise<void> {
    await this.#db.deleteFrom('nm_ws_passes').where('username', '=', username).execute();
  }
}
