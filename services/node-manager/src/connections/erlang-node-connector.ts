import { randomBytes } from 'node:crypto';
import { listElements, type Term } from '@triad/erlang-dist';
import type {
  NodeConnector,
  NodeRelease,
  NodeState,
  NodeStateListener,
  NodeTarget,
  ReachabilityReport,
} from './node-connector.js';
import { analyseReachability } from './analyse-reachability.js';
import { NotConnectedError, type ConnectionFailure } from './connection-failure.js';
import { MANAGED_NODE_DEFAULTS, ManagedNode, type ManagedNodeTiming } from './managed-node.js';
import { NodeConnection } from './node-connection.js';
import { releaseFromScriptId } from './script-id.js';

/** Options of `ErlangNodeConnector`. */
export interface ErlangNodeConnectorOptions {
  /** Called on every state change of every managed node (wire it to the topology store). */
  readonly onStateChange?: NodeStateListener;
  /** Called with the failure behind every change to DOWN/STOPPED (for logs: it never holds the cookie). */
  readonly onFailure?: (nodeId: string, failure: ConnectionFailure) => void;
  /** Our hidden node's name; default `triad_nm_<pid>_<random>@localhost` (unique per process). */
  readonly localName?: string;
  /** Timing overrides (see `MANAGED_NODE_DEFAULTS`). */
  readonly timing?: Partial<ManagedNodeTiming>;
  /** EPMD's port on every host (connections and reachability); default 4369. */
  readonly epmdPort?: number;
}

/**
 * The `NodeConnector` that talks to real Erlang nodes as a hidden node: one `ManagedNode`
 * (long-lived connection, health calls, reconnect with backoff) per managed node id. See
 * `ManagedNode` for the state rules. `failure(id)` tells why a node is not UP (`badCookie`,
 * `notRegistered`, `epmdUnreachable` ...). Call `close()` on shutdown.
 */
export class ErlangNodeConnector implements NodeConnector {
  readonly #nodes = new Map<string, ManagedNode>();
  readonly #options: ErlangNodeConnectorOptions;
  readonly #timing: ManagedNodeTiming;
  #stateListener: NodeStateListener | undefined;
  readonly localName: string;

  constructor(options: ErlangNodeConnectorOptions = {}) {
    this.#options = options;
    this.#timing = Object.freeze({ ...MANAGED_NODE_DEFAULTS, ...options.timing });
    this.#stateListener = options.onStateChange;
    this.localName = options.localName ?? `triad_nm_${process.pid}_${randomBytes(3).toString('hex')}@localhost`;
  }

  /** Replaces the state listener (for wiring after the topology store exists). */
  setStateListener(listener: NodeStateListener | undefined): void {
    this.#stateListener = listener;
  }

  /**
   * Starts managing `node` (replacing an earlier registration of the same id, e.g. a changed
   * cookie) and resolves with the state after the first attempt: UP, STOPPED or DOWN.
   */
  async connect(node: NodeTarget): Promise<NodeState> {
    this.#nodes.get(node.id)?.stop();
    const managed = new ManagedNode(node, this.#local(), this.#timing, (state, failure) => {
      if (this.#nodes.get(node.id) !== managed) return;
      this.#stateListener?.(node.id, state);
      if (failure) this.#options.onFailure?.(node.id, failure);
    });
    this.#nodes.set(node.id, managed);
    return managed.start();
  }

  /** Stops managing the node and closes its connection; unknown ids are ignored. */
  disconnect(nodeId: string): Promise<void> {
    const managed = this.#nodes.get(nodeId);
    this.#nodes.delete(nodeId);
    managed?.stop();
    return Promise.resolve();
  }

  state(nodeId: string): NodeState | undefined {
    return this.#nodes.get(nodeId)?.state;
  }

  /** Why a managed node is not UP; undefined while UP or unknown. */
  failure(nodeId: string): ConnectionFailure | undefined {
    return this.#nodes.get(nodeId)?.failure;
  }

  /**
   * `Module:Function(Args)` on a managed node that is UP, through its connection; rejects with
   * `NotConnectedError` when the node is unknown or not connected, otherwise as `NodeConnection.rpc`.
   */
  rpc(
    nodeId: string,
    module: string,
    fn: string,
    args: readonly Term[] = [],
    options: { timeoutMs?: number } = {},
  ): Promise<Term> {
    const connection = this.#nodes.get(nodeId)?.connection;
    if (!connection) return Promise.reject(new NotConnectedError(nodeId));
    return connection.rpc(module, fn, args, options);
  }

  /**
   * The release the node booted: `init:script_id()` through its connection (time limit
   * `healthTimeoutMs`, 2 s by default), read by `releaseFromScriptId`. Undefined when the node is
   * unknown or not UP, the call fails or times out, or the reply is not `{Name, Vsn}` text.
   */
  async release(nodeId: string): Promise<NodeRelease | undefined> {
    try {
      return releaseFromScriptId(
        await this.rpc(nodeId, 'init', 'script_id', [], { timeoutMs: this.#timing.healthTimeoutMs }),
      );
    } catch {
      return undefined;
    }
  }

  /**
   * Names of the visible nodes connected to `node` (`erlang:nodes()`: its cluster; hidden nodes
   * such as remote shells, tools and our own connections are left out). Uses the managed
   * connection when there is one, else a short-lived one with the target's cookie. Empty when the
   * node cannot be asked.
   */
  async discover(node: NodeTarget): Promise<string[]> {
    const managed = [...this.#nodes.values()].find(
      (m) => m.target.name === node.name && m.target.cookie === node.cookie,
    )?.connection;
    let connection = managed;
    try {
      connection ??= await NodeConnection.open({
        node: node.name,
        cookie: node.cookie,
        ...this.#local(),
        connectTimeoutMs: this.#timing.connectTimeoutMs,
      });
    } catch {
      return [];
    }
    try {
      // Visible peers only: hidden nodes (remote shells, tools, other services like us) are no cluster members.
      const reply = await connection.rpc('erlang', 'nodes', [], {
        timeoutMs: this.#timing.connectTimeoutMs,
      });
      const names = (listElements(reply) ?? []).flatMap((t) => (t.type === 'atom' ? [t.name] : []));
      return names.filter((n) => n !== connection.localName);
    } catch {
      return [];
    } finally {
      if (connection !== managed) connection.close();
    }
  }

  /**
   * The six checks of the spec (see `analyseReachability`), plus the cookie hint when a managed node
   * of that name was refused.
   */
  analyseReachability(name: string): Promise<ReachabilityReport> {
    const refused = [...this.#nodes.values()].some((m) => m.target.name === name && m.failure?.kind === 'badCookie');
    return analyseReachability(name, {
      ...(this.#options.epmdPort === undefined ? {} : { epmdPort: this.#options.epmdPort }),
      hintsWhenReachable: refused
        ? ['The last connection attempt was refused after the challenge: the stored cookie is wrong for this node.']
        : [],
    });
  }

  #local(): { localName: string; epmdPort?: number } {
    return this.#options.epmdPort === undefined
      ? { localName: this.localName }
      : { localName: this.localName, epmdPort: this.#options.epmdPort };
  }

  /** Stops managing every node (service shutdown). */
  close(): Promise<void> {
    for (const managed of this.#nodes.values()) managed.stop();
    this.#nodes.clear();
    return Promise.resolve();
  }
}
