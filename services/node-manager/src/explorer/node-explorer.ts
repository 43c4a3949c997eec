import { atom, int, string, type Term } from '@triad/erlang-dist';
import { ConnectionFailure, NotConnectedError, RpcTimeoutError } from '../connections/connection-failure.js';
import { nmError } from '../errors.js';
import {
  isLocalPidText,
  type EtsSample,
  type ProcessDetails,
  type ProcessSample,
  type ProcessSortKey,
  type ProcessSummary,
} from '../model/explorer-records.js';
import type { RpcCaller } from '../monitoring/collector.js';
import type { ErlangExpression } from '../monitoring/erlang-expression.js';
import {
  ETS_TABLES_EXPRESSION,
  parseEtsSample,
  parseProcessDetails,
  parseProcessSample,
  PROCESS_DETAILS_EXPRESSION,
  TOP_PROCESSES_EXPRESSION,
} from './explorer-readings.js';

const SORT_VALUE: Readonly<Record<ProcessSortKey, (p: ProcessSummary) => number>> = Object.freeze({
  memory: (p) => p.memory,
  reductions: (p) => p.reductions,
  message_queue_len: (p) => p.messageQueueLen,
});

/** The node an explorer call reads: its id (for the connection) and name (to print its pids as `<0.N.S>`). */
export interface ExplorerNode {
  readonly id: string;
  readonly name: string;
}

/** Bounds of explorer calls. */
export interface ExplorerLimits {
  /** Time limit of each RPC of a call, ms. */
  readonly timeoutMs: number;
  /** Explorer calls in flight on one node at most (per instance); one more is refused. */
  readonly callsPerNode: number;
}

/**
 * Reads a node's processes and ETS tables on demand (`GET /api/explorer/...`): each call is one
 * `erl_eval` RPC of a fixed expression (`explorer-readings.ts`) through the node's managed
 * connection, with the caller's values bound as terms; nothing is loaded onto the node and
 * nothing on it changes. At most `callsPerNode` calls run on one node at once, each RPC within
 * `timeoutMs`.
 *
 * Errors (catalogue): `NM_ERR_EXPLORER_BUSY` (cap reached), `NM_ERR_NODE_TIMEOUT`,
 * `NM_ERR_NODE_UNREACHABLE` (no connection here, or it closed), `NM_ERR_EXPLORER_FAILED` (the
 * node answered with an error), `NM_ERR_BAD_PID`, `NM_ERR_PROCESS_NOT_FOUND`.
 */
export class NodeExplorer {
  readonly #rpc: RpcCaller | undefined;
  readonly #limits: ExplorerLimits;
  readonly #inFlight = new Map<string, number>();
  readonly #onFailure: (error: unknown, nodeId: string) => void;

  /** `rpc` undefined: a service without Erlang connections, every call is `NM_ERR_NODE_UNREACHABLE`. */
  constructor(
    rpc: RpcCaller | undefined,
    limits: ExplorerLimits,
    onFailure: (error: unknown, nodeId: string) => void = () => {},
  ) {
    this.#rpc = rpc;
    this.#limits = Object.freeze({ ...limits });
    this.#onFailure = onFailure;
  }

  /** The first `limit` processes by `sort`, largest first, and the node's process count. */
  async topProcesses(node: ExplorerNode, sort: ProcessSortKey, limit: number): Promise<ProcessSample> {
    const reply = await this.#call(node, TOP_PROCESSES_EXPRESSION, { Key: atom(sort), Limit: int(limit) });
    const sample = this.#parse(node, () => parseProcessSample(reply, node.name));
    // The values shown are read a moment after the ones that chose the processes (the evaluating
    // process itself grows meanwhile): the list is ordered by the values shown.
    const value = SORT_VALUE[sort];
    return { ...sample, processes: [...sample.processes].sort((a, b) => value(b) - value(a)) };
  }

  /**
   * One process in detail. `pid` must be `<0.N.S>` (`isLocalPidText`), checked before the node is asked.
   * @throws NM_ERR_BAD_PID, NM_ERR_PROCESS_NOT_FOUND
   */
  async process(node: ExplorerNode, pid: string): Promise<ProcessDetails> {
    if (!isLocalPidText(pid)) throw nmError('NM_ERR_BAD_PID');
    const reply = await this.#call(node, PROCESS_DETAILS_EXPRESSION, { PidText: string(pid) });
    const details = this.#parse(node, () => parseProcessDetails(reply, pid, node.name));
    if (!details) throw nmError('NM_ERR_PROCESS_NOT_FOUND');
    return details;
  }

  /** The `limit` largest ETS tables by memory, and the node's table count. */
  async etsTables(node: ExplorerNode, limit: number): Promise<EtsSample> {
    const reply = await this.#call(node, ETS_TABLES_EXPRESSION, { Limit: int(limit) });
    return this.#parse(node, () => parseEtsSample(reply, node.name));
  }

  /** Explorer calls in flight on a node (for tests and health). */
  inFlight(nodeId: string): number {
    return this.#inFlight.get(nodeId) ?? 0;
  }

  async #call(node: ExplorerNode, expression: ErlangExpression, bindings: Record<string, Term>): Promise<Term> {
    if (!this.#rpc) throw nmError('NM_ERR_NODE_UNREACHABLE', 'this service has no Erlang connections');
    const running = this.inFlight(node.id);
    if (running >= this.#limits.callsPerNode) throw nmError('NM_ERR_EXPLORER_BUSY', `${running} calls on ${node.id}`);
    this.#inFlight.set(node.id, running + 1);
    try {
      return await expression.evaluate(this.#rpc, node.id, this.#limits.timeoutMs, bindings);
    } catch (error) {
      this.#onFailure(error, node.id);
      if (error instanceof RpcTimeoutError) throw nmError('NM_ERR_NODE_TIMEOUT', error.message);
      if (error instanceof ConnectionFailure || error instanceof NotConnectedError)
        throw nmError('NM_ERR_NODE_UNREACHABLE', String(error));
      throw nmError('NM_ERR_EXPLORER_FAILED', String(error));
    } finally {
      const left = this.inFlight(node.id) - 1;
      if (left > 0) this.#inFlight.set(node.id, left);
      else this.#inFlight.delete(node.id);
    }
  }

  #parse<T>(node: ExplorerNode, parse: () => T): T {
    try {
      return parse();
    } catch (error) {
      this.#onFailure(error, node.id);
      throw nmError('NM_ERR_EXPLORER_FAILED', String(error));
    }
  }
}
