import type { Kysely } from 'kysely';
import type { Database } from '@triad/db';
import type { KeyCheckStore } from '@triad/service-kit';
import type { TemplatesDatabase } from './templates-tables.js';

/** `templates_secret_key_checks`: the check value of the key sealing each kind of stored secret. */
export class SecretKeyCheckRepository implements KeyCheckStore {
  readonly #db: Kysely<TemplatesDatabase>;

  constructor(database: Database<TemplatesDatabase>) {
    this.#db = database.db;
  }

  async read(purpose: string): Promise<string | undefined> {
    const row = await this.#db
      .selectFrom('templates_secret_key_checks')
      .select('check_value')
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    return row?.check_value;
  }

  async recordIfAbsent(purpose: string, value: string): Promise<string> {
    await this.#db
      .insertInto('templates_secret_key_checks')
      .values({ purpose, check_value: value })
      .onConflict((conflict) => conflict.column('purpose').doNothing())
      .execute();
    return (await this.read(purpose)) ?? value;
  }

  async replace(purpose: string, value: string): Promise<void> {
    await this.#db
      .insertInto('templates_secret_key_checks')
      .values({ purpose, check_value: value })
      .onConflict((conflict) => conflict.column('purpose').doUpdateSet({ check_value: value }))
      .execute();
  }
}
