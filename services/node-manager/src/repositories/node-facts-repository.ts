import type { Kysely } from 'kysely';
import type { Database } from '@triad/db';
import type { NodeFacts } from '../model/node-facts.js';
import type { NodeManagerDatabase } from './node-manager-tables.js';

/** `nm_node_facts`: the latest facts of each UP node, for every instance of a shared database. */
export class NodeFactsRepository {
  readonly #db: Kysely<NodeManagerDatabase>;

  constructor(database: Database<NodeManagerDatabase>) {
    this.#db = database.db;
  }

  async put(nodeId: string, facts: NodeFacts): Promise<void> {
    const factsJson = JSON.stringify(facts);
    await this.#db
      .insertInto('nm_node_facts')
      .values({ node_id: nodeId, facts_json: factsJson })
      .onConflict((oc) => oc.column('node_id').doUpdateSet({ facts_json: factsJson }))
      .execute();
  }

  async remove(nodeId: string): Promise<void> {
    await this.#db.deleteFrom('nm_node_facts').where('node_id', '=', nodeId).execute();
  }

  /** The stored facts of these nodes (absent ones left out). */
  async read(nodeIds: readonly string[]): Promise<Map<string, NodeFacts>> {
    if (nodeIds.length === 0) return new Map();
    const rows = await this.#db
      .selectFrom('nm_node_facts')
      .select(['node_id', 'facts_json'])
      .where('node_id', 'in', [...nodeIds])
      .execute();
    return new Map(rows.map((r) => [r.node_id, JSON.parse(r.facts_json) as NodeFacts]));
  }
}
