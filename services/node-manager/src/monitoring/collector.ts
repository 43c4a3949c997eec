import type { Term } from '@triad/erlang-dist';

/** The one method of the connection layer the collectors call (`ErlangNodeConnector.rpc`). */
export interface RpcCaller {
  rpc(
    nodeId: string,
    module: string,
    fn: string,
    args?: readonly Term[],
    options?: { timeoutMs?: number },
  ): Promise<Term>;
}

/** A managed node as the monitor hands it to collectors. */
export interface MonitoredNode {
  readonly id: string;
  /** `name@host` as stored. */
  readonly name: string;
}

/**
 * A periodic collector behind one plugin: the monitor calls `collect` every `intervalMs` while
 * the node is UP and the plugin is on (never two calls for one node at once), and `stop` when the
 * plugin is switched off or the node is deleted. `collect` may reject (node gone, RPC timeout): the
 * monitor logs and tries again next interval.
 */
export interface Collector {
  /** The plugin name that switches it (`/api/plugins/...`). */
  readonly plugin: string;
  /** State of the plugin when a node has no row for it (nodes stored before it existed). */
  readonly defaultOn: boolean;
  readonly intervalMs: number;
  collect(node: MonitoredNode): Promise<void>;
  stop(node: MonitoredNode): Promise<void>;
  /** The node left UP while the plugin is on (collection resumes when it is UP again). */
  paused?(node: MonitoredNode): Promise<void>;
  /**
   * The node moved to another instance (docs/decisions/0027): forget what is kept in memory about
   * it, raise and clear nothing (its new owner reads the stored alarms).
   */
  released?(node: MonitoredNode): void;
}

/** Default time limit of one collector RPC, ms. */
export const COLLECTOR_RPC_TIMEOUT_MS = 2_000;
