import type { Kysely, Transaction } from 'kysely';
import type { Database } from '@triad/db';
import type { NodeManagerDatabase } from './node-manager-tables.js';

/** Tags every installation knows: data types and the default plugin tags. */
export const BUILT_IN_TAGS: readonly string[] = Object.freeze(['alarm', 'dev', 'metric', 'op']);

/** Custom tags: any tag set on a user or carried by an alarm is remembered here. */
export class TagRepository {
  readonly #db: Kysely<NodeManagerDatabase>;

  constructor(database: Database<NodeManagerDatabase>) {
    this.#db = database.db;
  }

  /** The remembered custom tags, in no particular order. */
  async list(): Promise<string[]> {
    const rows = await this.#db.selectFrom('nm_custom_tags').select('tag').execute();
    return rows.map((r) => r.tag);
  }

  /** Records the tags that are not built in (known ones are left alone); `db` joins a transaction. */
  async remember(
    tags: readonly string[],
    db: Kysely<NodeManagerDatabase> | Transaction<NodeManagerDatabase> = this.#db,
  ): Promise<void> {
    const fresh = [...new Set(tags)].filter((t) => !BUILT_IN_TAGS.includes(t));
    if (fresh.length === 0) return;
    await db
      .insertInto('nm_custom_tags')
      .values(fresh.map((tag) => ({ tag })))
      .onConflict((oc) => oc.column('tag').doNothing())
      .execute();
  }
}
