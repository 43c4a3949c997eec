import { listElements } from '@triad/erlang-dist';
import { ProblemError } from '@triad/service-kit';
import type { ClusterDiscoveryRepository } from '../repositories/cluster-discovery-repository.js';
import type { TopologyRepository } from '../repositories/topology-repository.js';
import { COLLECTOR_RPC_TIMEOUT_MS, type Collector, type MonitoredNode, type RpcCaller } from './collector.js';
import { erlangTermText } from './erlang-term-text.js';

/**
 * Name the discovery runs under in the monitor. It is not one of the listed plugins (no row, so
 * always on); the switch is per node family (`ClusterDiscoveryRepository`).
 */
export const CLUSTER_DISCOVERY = 'triad_cluster_discovery';

/** Adds a node as `add-node` does (`TopologyCommands.addNode`). @throws NM_ERR_NODE_EXISTS when it is stored. */
export interface NodeAdder {
  addNode(name: string, cookie: string): Promise<unknown>;
}

/**
 * Adds the nodes that join a managed node's cluster later: each interval it reads the node's
 * visible peers (`erlang:nodes()`: hidden nodes such as remote shells and tools are not cluster
 * members) and adds every peer never stored before, with the managed node's cookie, as
 * `add-node` would (family of its release). Only for nodes whose family has discovery on (the
 * default). A peer an operator deleted is not added again.
 */
export class ClusterDiscovery implements Collector {
  readonly plugin = CLUSTER_DISCOVERY;
  readonly defaultOn = true;
  readonly intervalMs: number;
  readonly #rpc: RpcCaller;
  readonly #topology: NodeAdder;
  readonly #nodes: Pick<TopologyRepository, 'findNode'>;
  readonly #discovery: Pick<ClusterDiscoveryRepository, 'isOn' | 'knowsNodeName'>;

  constructor(
    rpc: RpcCaller,
    topology: NodeAdder,
    nodes: Pick<TopologyRepository, 'findNode'>,
    discovery: Pick<ClusterDiscoveryRepository, 'isOn' | 'knowsNodeName'>,
    intervalMs: number,
  ) {
    this.#rpc = rpc;
    this.#topology = topology;
    this.#nodes = nodes;
    this.#discovery = discovery;
    this.intervalMs = intervalMs;
  }

  async collect(node: MonitoredNode): Promise<void> {
    await this.discover(node);
  }

  /** One round for `node`: the names of the nodes added. */
  async discover(node: MonitoredNode): Promise<string[]> {
    const record = await this.#nodes.findNode(node.id);
    if (!record || record.deleted || !(await this.#discovery.isOn(record.familyId))) return [];
    const reply = await this.#rpc.rpc(node.id, 'erlang', 'nodes', [], { timeoutMs: COLLECTOR_RPC_TIMEOUT_MS });
    const peers = listElements(reply);
    if (!peers) throw new Error(`erlang:nodes() gave ${erlangTermText(reply)}`);
    const added: string[] = [];
    for (const peer of peers) {
      if (peer.type !== 'atom' || (await this.#discovery.knowsNodeName(peer.name))) continue;
      try {
        await this.#topology.addNode(peer.name, record.cookie);
        added.push(peer.name);
      } catch (error) {
        // Added meanwhile by someone else (NM_ERR_NODE_EXISTS): nothing to do.
        if (!(error instanceof ProblemError && error.code === 'NM_ERR_NODE_EXISTS')) throw error;
      }
    }
    return added;
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }
}
