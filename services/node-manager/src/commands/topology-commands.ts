import { randomUUID } from 'node:crypto';
import type { NodeConnector, NodeRelease, NodeState } from '../connections/node-connector.js';
import { splitNodeName } from '../connections/reachability-checks.js';
import { nmError } from '../errors.js';
import type { NodeManagerEvents } from '../events/node-manager-events.js';
import { DEFAULT_PLUGINS, type PluginRepository } from '../repositories/plugin-repository.js';
import type { FamilyRecord } from '../model/family-record.js';
import type { NodeRecord } from '../model/node-record.js';
import type { TopologyRepository } from '../repositories/topology-repository.js';

/** Family of nodes added without a family whose release is unknown (not UP when added, or the call failed). */
export const DEFAULT_FAMILY_NAME = 'Default';

/**
 * The family name of a release, as WombatOAM derives it from the boot script id: `"<Name> <Vsn>"`
 * (a plain `erl` on OTP 25 gives `Erlang/OTP 25`).
 */
export function releaseFamilyName(release: NodeRelease): string {
  return `${release.name} ${release.version}`;
}

/** Options of `addNode`. */
export interface AddNodeOptions {
  /** Id of a live family to place the node in, instead of the family of its release. */
  readonly familyId?: string;
}

/** Erlang's `undefined`, rendered as WombatOAM renders it. */
export const UNDEFINED = 'undefined';

/** Input of `createFamily`, as the spec's POST body. */
export interface NewFamily {
  readonly name: string;
  readonly bootstrap_node_selection: string;
  readonly bootstrap_strategy: string;
  readonly bootstrap_strategy_opts: readonly unknown[];
}

/** Result of move-node and family rename, as the replies show it. */
export type Outcome = { success: true } | { success: false; reason: string };

/**
 * Who monitors a node just added, when several instances share the nodes (`NodeOwnership`):
 * `settle` runs a lease cycle and says whether this instance is the node's owner.
 */
export interface NodeSettler {
  settle(nodeId: string): Promise<boolean>;
}

/** Use cases on nodes and families; state changes are published as `node_state` events. */
export class TopologyCommands {
  readonly #topology: TopologyRepository;
  readonly #plugins: PluginRepository;
  readonly #connector: NodeConnector;
  readonly #events: NodeManagerEvents;
  readonly #ownership: NodeSettler | undefined;
  /** Names of nodes whose add-node is in progress. */
  readonly #adding = new Set<string>();
  /** Our own Erlang node names (self-registration): never added as managed nodes. */
  readonly #ownNames = new Set<string>();
  /** Family creations in progress by name (concurrent adds of one release create one family). */
  readonly #creating = new Map<string, Promise<FamilyRecord>>();

  constructor(
    topology: TopologyRepository,
    plugins: PluginRepository,
    connector: NodeConnector,
    events: NodeManagerEvents,
    ownership?: NodeSettler,
  ) {
    this.#topology = topology;
    this.#plugins = plugins;
    this.#connector = connector;
    this.#events = events;
    this.#ownership = ownership;
  }

  /**
   * Adds a node by `name@host` and cookie, with the default plugins, and starts managing it; the
   * reply carries the state the connector reports after its first attempt (UP, STOPPED or DOWN).
   * Family: `options.familyId` when given (a live family), else the family of the node's release
   * when it is UP and the connector can tell the release (`releaseFamilyName`, created when
   * missing), else the `Default` family. The release is asked once, here; a node added while not
   * UP stays in `Default` until moved (docs/decisions/0011). The adding instance takes the node's
   * lease when it is the node's wanted owner (`NodeSettler.settle`), else disconnects.
   * @throws NM_ERR_BAD_NODE_FORMAT, NM_ERR_NODE_EXISTS, NM_ERR_NODE_FAMILY_NOT_FOUND (unknown `familyId`)
   */
  async addNode(name: string, cookie: string, options: AddNodeOptions = {}): Promise<NodeRecord> {
    if (!splitNodeName(name)) throw nmError('NM_ERR_BAD_NODE_FORMAT');
    // Peers list our named node in nodes(): cluster discovery must not add the node manager itself.
    if (this.#ownNames.has(name)) throw nmError('NM_ERR_NODE_EXISTS', `${name} is the node manager itself`);
    // A name being added counts as taken: the connect below leaves time for a second request.
    if (this.#adding.has(name)) throw nmError('NM_ERR_NODE_EXISTS');
    this.#adding.add(name);
    try {
      if (await this.#topology.findLiveNodeByName(name)) throw nmError('NM_ERR_NODE_EXISTS');
      const chosen = options.familyId === undefined ? undefined : await this.#topology.findFamily(options.familyId);
      if (options.familyId !== undefined && (!chosen || chosen.deleted)) throw nmError('NM_ERR_NODE_FAMILY_NOT_FOUND');
      const id = randomUUID();
      // Connect before storing, so the family of the release is known when the row is written;
      // state changes reported meanwhile find no row and are caught up by reading the state after.
      const first = await this.#connector.connect({ id, name, cookie });
      try {
        const family =
          chosen ??
          (first === 'UP' ? await this.#releaseFamily(id) : undefined) ??
          (await this.#family(DEFAULT_FAMILY_NAME));
        const node: NodeRecord = {
          id,
          name,
          familyId: family.id,
          host: UNDEFINED,
          cookie,
          domainId: UNDEFINED,
          state: this.#connector.state(id) ?? first,
          tref: UNDEFINED,
          pluginsOpts: [],
          deleted: false,
        };
        await this.#topology.insertNode(node);
        await this.#plugins.replace(id, DEFAULT_PLUGINS);
        // The node's lease decides which instance monitors it (docs/decisions/0027); when it is
        // another one, that one connects and this connection, made for the release, goes.
        if (this.#ownership && !(await this.#ownership.settle(id))) await this.#connector.disconnect(id);
        const state: NodeState = this.#connector.state(id) ?? first;
        await this.setNodeState(id, state);
        return { ...node, state };
      } catch (error) {
        await this.#connector.disconnect(id);
        throw error;
      }
    } finally {
      this.#adding.delete(name);
    }
  }

  /**
   * Adds a node, then every node the connector finds connected to it (same cookie, same `options`);
   * the added node first. When the node is managed already, it is not added again: the reply is
   * that node, then the nodes discovered now (none when all are managed).
   */
  async addNodeAndDiscover(name: string, cookie: string, options: AddNodeOptions = {}): Promise<NodeRecord[]> {
    const managed = this.#adding.has(name) ? undefined : await this.#topology.findLiveNodeByName(name);
    const first = managed ?? (await this.addNode(name, cookie, options));
    const added = [first];
    for (const other of await this.#connector.discover({ id: first.id, name, cookie })) {
      if (other === name || (await this.#topology.findLiveNodeByName(other))) continue;
      added.push(await this.addNode(other, cookie, options));
    }
    return added;
  }

  /** Marks `name` as the node manager's own Erlang node: `addNode` refuses it (NM_ERR_NODE_EXISTS). */
  reserveOwnName(name: string): void {
    this.#ownNames.add(name);
  }

  /** Records a state reported by the connection layer; publishes it. False for unknown nodes. */
  async setNodeState(nodeId: string, state: NodeState): Promise<boolean> {
    if (!(await this.#topology.setNodeState(nodeId, state))) return false;
    const node = await this.#topology.findNode(nodeId);
    if (node) this.#events.emit({ type: 'node_state', nodeId, nodeName: node.name, state, deleted: false });
    return true;
  }

  /** Deletes a node (it keeps answering by id with `deleted: true`). @throws NM_ERR_NODE_NOT_FOUND */
  async deleteNode(nodeId: string): Promise<void> {
    const node = await this.#topology.findNode(nodeId);
    if (!node || node.deleted || !(await this.#topology.deleteNode(nodeId))) throw nmError('NM_ERR_NODE_NOT_FOUND');
    await this.#connector.disconnect(nodeId);
    this.#events.emit({ type: 'node_state', nodeId, nodeName: node.name, state: node.state, deleted: true });
  }

  /** @throws NM_ERR_NODE_FAMILY_EXISTS, NM_ERR_INVALID_REQUEST (selection other than `random`) */
  async createFamily(input: NewFamily): Promise<FamilyRecord> {
    if (input.bootstrap_node_selection !== 'random')
      throw nmError('NM_ERR_INVALID_REQUEST', 'bootstrap_node_selection must be random');
    const family = {
      id: randomUUID(),
      name: input.name,
      description: [],
      nodeSelection: input.bootstrap_node_selection,
      bootstrapStrategy: input.bootstrap_strategy,
      bootstrapStrategyOpts: input.bootstrap_strategy_opts,
      neighbors: [],
      pluginsOpts: [],
      deleted: false,
    };
    if (!(await this.#topology.insertFamilyIfNameFree(family))) throw nmError('NM_ERR_NODE_FAMILY_EXISTS');
    return { ...family, nodes: [] };
  }

  async renameFamily(familyId: string, name: string): Promise<Outcome> {
    const outcome = await this.#topology.renameFamily(familyId, name);
    if (outcome === 'not_found') return { success: false, reason: 'node_family_not_found' };
    if (outcome === 'name_taken') return { success: false, reason: 'node_family_name_taken' };
    return { success: true };
  }

  async moveNode(nodeId: string, familyId: string): Promise<Outcome> {
    return (await this.#topology.moveNode(nodeId, familyId))
      ? { success: true }
      : { success: false, reason: 'node_or_family_not_found' };
  }

  /** Deletes a family and all its nodes. @throws NM_ERR_NODE_FAMILY_NOT_FOUND */
  async forceDeleteFamily(familyId: string): Promise<void> {
    const nodeIds = await this.#topology.forceDeleteFamily(familyId);
    if (!nodeIds) throw nmError('NM_ERR_NODE_FAMILY_NOT_FOUND');
    for (const nodeId of nodeIds) {
      await this.#connector.disconnect(nodeId);
      const node = await this.#topology.findNode(nodeId);
      if (node)
        this.#events.emit({ type: 'node_state', nodeId, nodeName: node.name, state: node.state, deleted: true });
    }
  }

  /** The family of the node's release, found or created; undefined when the connector cannot tell the release. */
  async #releaseFamily(nodeId: string): Promise<FamilyRecord | undefined> {
    const release = await this.#connector.release?.(nodeId);
    return release ? this.#family(releaseFamilyName(release)) : undefined;
  }

  /**
   * The live family named `name`, created (bootstrap strategy `none`) when missing; one creation per
   * name at a time.
   */
  #family(name: string): Promise<FamilyRecord> {
    const pending = this.#creating.get(name);
    if (pending) return pending;
    const work = (async () => {
      const existing = await this.#topology.findLiveFamilyByName(name);
      if (existing) return existing;
      try {
        return await this.createFamily({
          name,
          bootstrap_node_selection: 'random',
          bootstrap_strategy: 'none',
          bootstrap_strategy_opts: [],
        });
      } catch (error) {
        // Created meanwhile through the API: use that one.
        const created = await this.#topology.findLiveFamilyByName(name);
        if (created) return created;
        throw error;
      }
    })().finally(() => this.#creating.delete(name));
    this.#creating.set(name, work);
    return work;
  }
}
