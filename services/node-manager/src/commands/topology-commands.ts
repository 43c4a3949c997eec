import { randomUUID } from 'node:crypto';
import type { NodeConnector, NodeState } from '../connector/node-connector.js';
import { splitNodeName } from '../connector/reachability-checks.js';
import { nmError } from '../errors.js';
import type { NodeManagerEvents } from '../events/node-manager-events.js';
import { DEFAULT_PLUGINS, type PluginRepository } from '../repositories/plugin-repository.js';
import type { FamilyRecord, NodeRecord, TopologyRepository } from '../repositories/topology-repository.js';

/** Family that nodes join when added by hand, until the connection layer groups them by release. */
export const DEFAULT_FAMILY_NAME = 'Default';

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

/** Use cases on nodes and families; state changes are published as `node_state` events. */
export class TopologyCommands {
  readonly #topology: TopologyRepository;
  readonly #plugins: PluginRepository;
  readonly #connector: NodeConnector;
  readonly #events: NodeManagerEvents;

  constructor(topology: TopologyRepository, plugins: PluginRepository, connector: NodeConnector, events: NodeManagerEvents) {
    this.#topology = topology;
    this.#plugins = plugins;
    this.#connector = connector;
    this.#events = events;
  }

  /**
   * Adds a node by `name@host` and cookie, in the default family, with the default plugins; its
   * state is what the connector reports (`DOWN` or `STOPPED` until it answers).
   * @throws NM_ERR_BAD_NODE_FORMAT, NM_ERR_NODE_EXISTS
   */
  async addNode(name: string, cookie: string): Promise<NodeRecord> {
    if (!splitNodeName(name)) throw nmError('NM_ERR_BAD_NODE_FORMAT');
    if (await this.#topology.findLiveNodeByName(name)) throw nmError('NM_ERR_NODE_EXISTS');
    const family = await this.#defaultFamily();
    const id = randomUUID();
    const node: NodeRecord = {
      id,
      name,
      familyId: family.id,
      host: UNDEFINED,
      cookie,
      domainId: UNDEFINED,
      state: 'STOPPED',
      tref: UNDEFINED,
      pluginsOpts: [],
      deleted: false,
    };
    await this.#topology.insertNode(node);
    await this.#plugins.replace(id, DEFAULT_PLUGINS);
    const state = await this.#connector.connect({ id, name, cookie });
    await this.setNodeState(id, state);
    return { ...node, state };
  }

  /** Adds a node, then every node the connector finds connected to it (same cookie); the added node first. */
  async addNodeAndDiscover(name: string, cookie: string): Promise<NodeRecord[]> {
    const first = await this.addNode(name, cookie);
    const added = [first];
    for (const other of await this.#connector.discover({ id: first.id, name, cookie })) {
      if (other === name || (await this.#topology.findLiveNodeByName(other))) continue;
      added.push(await this.addNode(other, cookie));
    }
    return added;
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
    if (input.bootstrap_node_selection !== 'random') throw nmError('NM_ERR_INVALID_REQUEST', 'bootstrap_node_selection must be random');
    if (await this.#topology.findLiveFamilyByName(input.name)) throw nmError('NM_ERR_NODE_FAMILY_EXISTS');
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
    await this.#topology.insertFamily(family);
    return { ...family, nodes: [] };
  }

  async renameFamily(familyId: string, name: string): Promise<Outcome> {
    const family = await this.#topology.findFamily(familyId);
    if (!family || family.deleted) return { success: false, reason: 'node_family_not_found' };
    const holder = await this.#topology.findLiveFamilyByName(name);
    if (holder && holder.id !== familyId) return { success: false, reason: 'node_family_name_taken' };
    await this.#topology.renameFamily(familyId, name);
    return { success: true };
  }

  async moveNode(nodeId: string, familyId: string): Promise<Outcome> {
    return (await this.#topology.moveNode(nodeId, familyId)) ? { success: true } : { success: false, reason: 'node_or_family_not_found' };
  }

  /** Deletes a family and all its nodes. @throws NM_ERR_NODE_FAMILY_NOT_FOUND */
  async forceDeleteFamily(familyId: string): Promise<void> {
    const nodeIds = await this.#topology.forceDeleteFamily(familyId);
    if (!nodeIds) throw nmError('NM_ERR_NODE_FAMILY_NOT_FOUND');
    for (const nodeId of nodeIds) {
      await this.#connector.disconnect(nodeId);
      const node = await this.#topology.findNode(nodeId);
      if (node) this.#events.emit({ type: 'node_state', nodeId, nodeName: node.name, state: node.state, deleted: true });
    }
  }

  async #defaultFamily(): Promise<FamilyRecord> {
    const existing = await this.#topology.findLiveFamilyByName(DEFAULT_FAMILY_NAME);
    if (existing) return existing;
    return this.createFamily({ name: DEFAULT_FAMILY_NAME, bootstrap_node_selection: 'random', bootstrap_strategy: 'none', bootstrap_strategy_opts: [] });
  }
}
