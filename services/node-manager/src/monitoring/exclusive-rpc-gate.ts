import type { Term } from '@triad/erlang-dist';
import type { RpcCaller } from './collector.js';

interface NodeGate {
  /** Shared calls in flight. */
  active: number;
  /** Set while an exclusive call waits or runs; resolves when it is done. */
  exclusive: Promise<void> | undefined;
  /** Called when `active` drops to 0. */
  drained: (() => void) | undefined;
}

/**
 * Per-node ordering of collector RPCs: `shared` calls run side by side, an `exclusive` call waits
 * until the node's shared calls in flight have ended and holds new ones back until it is done. The
 * kernel sample is exclusive so that the run queue it reads holds none of our own calls.
 */
export class ExclusiveRpcGate {
  readonly #nodes = new Map<string, NodeGate>();
  /** Calls that may run together with other shared calls of the node. */
  readonly shared: RpcCaller;
  /** Calls that run with no other call of this gate in flight on the node. */
  readonly exclusive: RpcCaller;

  constructor(rpc: RpcCaller) {
    this.shared = { rpc: (nodeId, ...call) => this.#shared(nodeId, () => rpc.rpc(nodeId, ...call)) };
    this.exclusive = { rpc: (nodeId, ...call) => this.#exclusive(nodeId, () => rpc.rpc(nodeId, ...call)) };
  }

  #gate(nodeId: string): NodeGate {
    let gate = this.#nodes.get(nodeId);
    if (!gate) {
      gate = { active: 0, exclusive: undefined, drained: undefined };
      this.#nodes.set(nodeId, gate);
    }
    return gate;
  }

  async #shared(nodeId: string, call: () => Promise<Term>): Promise<Term> {
    const gate = this.#gate(nodeId);
    while (gate.exclusive) await gate.exclusive;
    gate.active++;
    try {
      return await call();
    } finally {
      gate.active--;
      if (gate.active === 0) gate.drained?.();
      this.#forget(nodeId, gate);
    }
  }

  async #exclusive(nodeId: string, call: () => Promise<Term>): Promise<Term> {
    const gate = this.#gate(nodeId);
    while (gate.exclusive) await gate.exclusive;
    let release = () => {};
    gate.exclusive = new Promise<void>((resolve) => (release = resolve));
    try {
      if (gate.active > 0) await new Promise<void>((resolve) => (gate.drained = resolve));
      gate.drained = undefined;
      return await call();
    } finally {
      gate.exclusive = undefined;
      release();
      this.#forget(nodeId, gate);
    }
  }

  /** Drops the state of an idle node (nodes come and go). */
  #forget(nodeId: string, gate: NodeGate): void {
    if (gate.active === 0 && !gate.exclusive) this.#nodes.delete(nodeId);
  }
}
