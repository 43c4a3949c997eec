import type { Term } from '@triad/erlang-dist';

/** Node states of the spec. */
export type NodeState = 'UP' | 'STOPPED' | 'DOWN';

/** What a connector needs to know about a stored node. */
export interface NodeTarget {
  readonly id: string;
  readonly name: string;
  /** The node's cookie: pass it to the node only, never to logs. */
  readonly cookie: string;
  /**
   * The node was UP when last known (its stored state is UP or DOWN, e.g. before a restart or a
   * takeover): a loss found on reconnecting is then DOWN, not STOPPED (docs/decisions/0038).
   */
  readonly wasUp?: boolean;
}

/** The release a node booted, as its boot script names it (`init:script_id()` -> `{Name, Vsn}`). */
export interface NodeRelease {
  readonly name: string;
  readonly version: string;
}

/** The reply of analyse-reachability, exactly as the spec shapes it. */
export interface ReachabilityReport {
  readonly reachability: 'should be reachable' | 'is not reachable';
  readonly details: ReadonlyArray<{ checksPerformed: string[] } | { reasonCode: string } | { reasonDetails: string }>;
  readonly description: string;
  readonly hints: readonly string[];
}

/**
 * The seam to real Erlang nodes: `BasicNodeConnector` (no Erlang) and `ErlangNodeConnector`
 * (the distribution layer) implement it; one is passed to `buildNodeManagerApp`.
 */
export interface NodeConnector {
  /** Starts managing a node; resolves with its state now (a fresh node is `DOWN` or `STOPPED` until it answers). */
  connect(node: NodeTarget): Promise<NodeState>;
  /** Stops managing a node (deleted or its family force-deleted). Never throws for unknown nodes. */
  disconnect(nodeId: string): Promise<void>;
  /** The last known state of a managed node, or undefined when the connector has no opinion. */
  state(nodeId: string): NodeState | undefined;
  /** Names of the nodes connected to `node` (for add-node-and-disc); empty when it cannot tell. */
  discover(node: NodeTarget): Promise<string[]>;
  /** Runs the reachability checks on a node name. */
  analyseReachability(name: string): Promise<ReachabilityReport>;
  /**
   * The release a managed node booted (its boot script id), asked of the node; undefined when the
   * node is not UP, the call fails or the reply is not `{Name, Vsn}` text. Optional: without it
   * every node added without a family goes to the default family. Never rejects.
   */
  release?(nodeId: string): Promise<NodeRelease | undefined>;
  /**
   * `Module:Function(Args)` on a managed node through its connection (the explorer's reads).
   * Optional: a connector without it has no Erlang connections. Rejects with `NotConnectedError`
   * when the node has no open connection here, `RpcTimeoutError` after `timeoutMs`.
   */
  rpc?(
    nodeId: string,
    module: string,
    fn: string,
    args?: readonly Term[],
    options?: { timeoutMs?: number },
  ): Promise<Term>;
}

/** Notified by a connector when a node's state changes (wired to the topology store). */
export type NodeStateListener = (nodeId: string, state: NodeState) => void;
