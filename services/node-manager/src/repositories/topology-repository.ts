import type { Kysely, Selectable } from 'kysely';
import { lockForTransaction, type Database, type DatabaseCapabilities } from '@triad/db';
import type { NodeManagerDatabase, NodeFamiliesTable, NodesTable } from './node-manager-tables.js';
import { CookieCipher } from '../secrets/cookie-cipher.js';
import { ReadCache, readCachesFit } from './read-cache.js';
import type { FamilyRecord } from '../model/family-record.js';
import type { NodeRecord } from '../model/node-record.js';

/** Held while a family name is checked and taken (creation, rename). */
const FAMILY_NAMES_LOCK = 'nm:family-names';

/** The id of the live family named `name`, if any. */
async function liveFamilyNamed(db: Kysely<NodeManagerDatabase>, name: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('nm_node_families')
    .select('id')
    .where('name', '=', name)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  return row?.id;
}

/**
 * Kysely queries of nodes and families. Deleting only sets `deleted`, so ids keep answering.
 * On SQLite the two lists are kept in a `ReadCache` until the next topology write (every write
 * goes through here), so polling them costs no query. Cookies are sealed by `cookies` on the way
 * in and opened on the way out; reading a cookie no key opens throws `CookieSealError`.
 */
export class TopologyRepository {
  readonly #db: Kysely<NodeManagerDatabase>;
  readonly #now: () => number;
  readonly #cache: ReadCache<readonly unknown[]> | undefined;
  readonly #cookies: CookieCipher;
  readonly #capabilities: DatabaseCapabilities;

  /** @param cookies default: a random in-memory key (tests; cookies do not outlive the process). */
  constructor(
    database: Database<NodeManagerDatabase>,
    now: () => number = Date.now,
    cookies: CookieCipher = CookieCipher.ephemeral(),
  ) {
    this.#db = database.db;
    this.#now = now;
    this.#cookies = cookies;
    this.#capabilities = database.capabilities;
    if (readCachesFit(database)) this.#cache = new ReadCache((list) => list.length);
  }

  /**
   * Seals with `cipher`'s first key every stored cookie not sealed with it yet: plain-text cookies
   * stored before encryption, and those of an older key during a rotation. One transaction; returns
   * how many were rewritten. @throws CookieSealError (nothing changed) when one cannot be opened.
   */
  async resealCookies(cipher: CookieCipher = this.#cookies): Promise<number> {
    const rewritten = await this.#db.transaction().execute(async (trx) => {
      const rows = await trx.selectFrom('nm_nodes').select(['id', 'cookie']).execute();
      let count = 0;
      for (const row of rows) {
        if (cipher.isCurrent(row.cookie)) continue;
        const sealed = cipher.seal(cipher.open(row.cookie));
        await trx.updateTable('nm_nodes').set({ cookie: sealed }).where('id', '=', row.id).execute();
        count += 1;
      }
      return count;
    });
    this.#cache?.invalidate();
    return rewritten;
  }

  /** Live nodes in the order they were added. */
  async listNodes(): Promise<readonly NodeRecord[]> {
    const load = async () => {
      const rows = await this.#db
        .selectFrom('nm_nodes')
        .selectAll()
        .where('deleted', '=', 0)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return Object.freeze(rows.map((row) => this.#toNode(row)));
    };
    return (this.#cache ? this.#cache.through('nodes', load) : load()) as Promise<readonly NodeRecord[]>;
  }

  /** Forgets the cached lists; for code that changed topology rows without this repository. */
  forgetCachedReads(): void {
    this.#cache?.invalidate();
  }

  async findNode(id: string): Promise<NodeRecord | undefined> {
    const row = await this.#db.selectFrom('nm_nodes').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? this.#toNode(row) : undefined;
  }

  async findLiveNodeByName(name: string): Promise<NodeRecord | undefined> {
    const row = await this.#db
      .selectFrom('nm_nodes')
      .selectAll()
      .where('name', '=', name)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return row ? this.#toNode(row) : undefined;
  }

  async insertNode(node: NodeRecord): Promise<void> {
    this.#cache?.invalidate();
    await this.#db
      .insertInto('nm_nodes')
      .values({
        id: node.id,
        name: node.name,
        node_family_id: node.familyId,
        host: node.host,
        cookie: this.#cookies.seal(node.cookie),
        domain_id: node.domainId,
        state: node.state,
        tref: node.tref,
        plugins_opts_json: JSON.stringify(node.pluginsOpts),
        deleted: node.deleted ? 1 : 0,
        created_at: this.#now(),
      })
      .execute();
  }

  /** Sets a live node's state; false when no live node has the id. */
  async setNodeState(id: string, state: string): Promise<boolean> {
    this.#cache?.invalidate();
    const r = await this.#db
      .updateTable('nm_nodes')
      .set({ state })
      .where('id', '=', id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Marks a live node deleted; false when there is none with the id. */
  async deleteNode(id: string): Promise<boolean> {
    this.#cache?.invalidate();
    const r = await this.#db
      .updateTable('nm_nodes')
      .set({ deleted: 1 })
      .where('id', '=', id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Moves a live node into a live family; false when either is missing. */
  async moveNode(nodeId: string, familyId: string): Promise<boolean> {
    this.#cache?.invalidate();
    return this.#db.transaction().execute(async (trx) => {
      const family = await trx
        .selectFrom('nm_node_families')
        .select('id')
        .where('id', '=', familyId)
        .where('deleted', '=', 0)
        .executeTakeFirst();
      if (!family) return false;
      const r = await trx
        .updateTable('nm_nodes')
        .set({ node_family_id: familyId })
        .where('id', '=', nodeId)
        .where('deleted', '=', 0)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    });
  }

  /** Live families with their live node ids, in the order they were created. */
  async listFamilies(): Promise<readonly FamilyRecord[]> {
    const load = async () => {
      const rows = await this.#db
        .selectFrom('nm_node_families')
        .selectAll()
        .where('deleted', '=', 0)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const nodes = await this.#db
        .selectFrom('nm_nodes')
        .select(['id', 'node_family_id'])
        .where('deleted', '=', 0)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return Object.freeze(
        rows.map((row) =>
          toFamily(
            row,
            nodes.filter((n) => n.node_family_id === row.id).map((n) => n.id),
          ),
        ),
      );
    };
    return (this.#cache ? this.#cache.through('families', load) : load()) as Promise<readonly FamilyRecord[]>;
  }

  async findFamily(id: string): Promise<FamilyRecord | undefined> {
    const row = await this.#db.selectFrom('nm_node_families').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const nodes = await this.#db
      .selectFrom('nm_nodes')
      .select('id')
      .where('node_family_id', '=', id)
      .where('deleted', '=', 0)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return toFamily(
      row,
      nodes.map((n) => n.id),
    );
  }

  async findLiveFamilyByName(name: string): Promise<FamilyRecord | undefined> {
    const id = await liveFamilyNamed(this.#db, name);
    return id === undefined ? undefined : this.findFamily(id);
  }

  /**
   * Inserts `family` unless a live family already has its name (then returns false and inserts
   * nothing). The check and the insert hold the family-name lock, so two instances creating the same
   * name at once end with one family.
   */
  async insertFamilyIfNameFree(family: Omit<FamilyRecord, 'nodes'>): Promise<boolean> {
    this.#cache?.invalidate();
    return this.#db.transaction().execute(async (trx) => {
      await lockForTransaction(trx, this.#capabilities, FAMILY_NAMES_LOCK);
      if (await liveFamilyNamed(trx, family.name)) return false;
      await trx
        .insertInto('nm_node_families')
        .values({
          id: family.id,
          name: family.name,
          description_json: JSON.stringify(family.description),
          node_selection: family.nodeSelection,
          bootstrap_strategy: family.bootstrapStrategy,
          bootstrap_strategy_opts_json: JSON.stringify(family.bootstrapStrategyOpts),
          neighbors_json: JSON.stringify(family.neighbors),
          plugins_opts_json: JSON.stringify(family.pluginsOpts),
          deleted: family.deleted ? 1 : 0,
          created_at: this.#now(),
        })
        .execute();
      return true;
    });
  }

  /** Renames a live family, unless another live family has that name; under the family-name lock. */
  async renameFamily(id: string, name: string): Promise<'renamed' | 'not_found' | 'name_taken'> {
    this.#cache?.invalidate();
    return this.#db.transaction().execute(async (trx) => {
      await lockForTransaction(trx, this.#capabilities, FAMILY_NAMES_LOCK);
      const holder = await liveFamilyNamed(trx, name);
      if (holder !== undefined && holder !== id) return 'name_taken';
      const r = await trx
        .updateTable('nm_node_families')
        .set({ name })
        .where('id', '=', id)
        .where('deleted', '=', 0)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0 ? 'renamed' : 'not_found';
    });
  }

  /** Marks a live family and all its live nodes deleted; returns the node ids, or undefined when no such family. */
  async forceDeleteFamily(id: string): Promise<string[] | undefined> {
    this.#cache?.invalidate();
    return this.#db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('nm_node_families')
        .set({ deleted: 1 })
        .where('id', '=', id)
        .where('deleted', '=', 0)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) return undefined;
      const nodes = await trx
        .selectFrom('nm_nodes')
        .select('id')
        .where('node_family_id', '=', id)
        .where('deleted', '=', 0)
        .execute();
      await trx
        .updateTable('nm_nodes')
        .set({ deleted: 1 })
        .where('node_family_id', '=', id)
        .where('deleted', '=', 0)
        .execute();
      return nodes.map((n) => n.id);
    });
  }

  /** Records a crash log of a node (counted by node-stat). */
  async recordCrashLog(id: string, nodeId: string, at: number): Promise<void> {
    await this.#db.insertInto('nm_crash_logs').values({ id, node_id: nodeId, recorded_at: at }).execute();
  }

  async countCrashLogsSince(since: number): Promise<number> {
    const row = await this.#db
      .selectFrom('nm_crash_logs')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('recorded_at', '>=', since)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  #toNode(row: Selectable<NodesTable>): NodeRecord {
    return toNode(row, this.#cookies);
  }
}

function toNode(row: Selectable<NodesTable>, cookies: CookieCipher): NodeRecord {
  return {
    id: row.id,
    name: row.name,
    familyId: row.node_family_id,
    host: row.host,
    cookie: cookies.open(row.cookie),
    domainId: row.domain_id,
    state: row.state,
    tref: row.tref,
    pluginsOpts: JSON.parse(row.plugins_opts_json) as unknown[],
    deleted: Number(row.deleted) === 1,
  };
}

function toFamily(row: Selectable<NodeFamiliesTable>, nodes: string[]): FamilyRecord {
  return {
    id: row.id,
    name: row.name,
    description: JSON.parse(row.description_json) as unknown[],
    nodeSelection: row.node_selection,
    bootstrapStrategy: row.bootstrap_strategy,
    bootstrapStrategyOpts: JSON.parse(row.bootstrap_strategy_opts_json) as unknown[],
    neighbors: JSON.parse(row.neighbors_json) as unknown[],
    pluginsOpts: JSON.parse(row.plugins_opts_json) as unknown[],
    deleted: Number(row.deleted) === 1,
    nodes,
  };
}
