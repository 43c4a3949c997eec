import type { Kysely } from 'kysely';
import type { Database } from '@triad/db';
import type { KeyCheckStore } from '@triad/service-kit';
import type { NodeManagerDatabase } from './node-manager-tables.js';

/** `nm_secret_key_checks`: the check value of the key sealing each kind of stored secret. */
export class SecretKeyCheckRepository implements KeyCheckStore {
  readonly #db: Kysely<NodeManagerDatabase>;

  constructor(database: Database<NodeManagerDatabase>) {
    this.#db = database.db;
  }

  async read(purpose: string): Promise<string | undefined> {
    const row = await this.#db
      .selectFrom('nm_secret_key_checks')
      .select('check_value')
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    return row?.check_value;
  }

  async recordIfAbsent(purpose: string, value: string): Promise<string> {
    await this.#db
      .insertInto('nm_secret_key_checks')
      .values({ purpose, check_value: value })
      .onConflict((conflict) => conflict.column('purpose').doNothing())
      .execute();
    return (await this.read(purpose)) ?? value;
  }

  async replace(purpose: string, value: string): Promise<void> {
    await this.#db
      .insertInto('nm_secret_key_checks')
      .values({ purpose, check_value: value })
      .onConflict((conflict) => conflict.column('purpose').doUpdateSet({ check_value: value }))
      .execute();
  }
}
