import type { Database } from '@triad/db';
import type { Kysely } from 'kysely';
import type { NodeManagerDatabase } from './node-manager-tables.js';

/**
 * The per-family cluster discovery switch (`nm_node_families.discover_cluster`, on by default)
 * and the node names discovery must leave alone.
 */
export class ClusterDiscoveryRepository {
  readonly #db: Kysely<NodeManagerDatabase>;

  constructor(database: Database<NodeManagerDatabase>) {
    this.#db = database.db;
  }

  /** Whether newcomers to the clusters of the family's nodes are added; undefined for no live family. */
  async isOn(familyId: string): Promise<boolean | undefined> {
    const row = await this.#db
      .selectFrom('nm_node_families')
      .select('discover_cluster')
      .where('id', '=', familyId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return row ? Number(row.discover_cluster) === 1 : undefined;
  }

  /** Switches discovery of a live family; false when there is none. */
  async set(familyId: string, on: boolean): Promise<boolean> {
    const result = await this.#db
      .updateTable('nm_node_families')
      .set({ discover_cluster: on ? 1 : 0 })
      .where('id', '=', familyId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** True when a node of that name was ever stored, live or deleted (deleted ones stay out). */
  async knowsNodeName(name: string): Promise<boolean> {
    const row = await this.#db.selectFrom('nm_nodes').select('id').where('name', '=', name).executeTakeFirst();
    return row !== undefined;
  }
}
