import { lookup } from 'node:dns/promises';
import { Socket } from 'node:net';
import type { NodeConnector, NodeState, NodeTarget, ReachabilityReport } from './node-connector.js';
import { checkReachability, type ReachabilityProbes } from './reachability-checks.js';

/** Probes on the real network: `dns.lookup` and a TCP connect with a timeout. */
export function networkProbes(timeoutMs = 1000): ReachabilityProbes {
  return {
    async lookup(host) {
      return (await lookup(host)).address;
    },
    canConnect(host, port) {
      return new Promise((resolve) => {
        const socket = new Socket();
        const done = (ok: boolean) => {
          socket.destroy();
          resolve(ok);
        };
        socket.setTimeout(timeoutMs, () => done(false));
        socket.once('error', () => done(false));
        socket.connect(port, host, () => done(true));
      });
    },
  };
}

/**
 * The connector used until the Erlang distribution layer exists: it cannot talk to nodes, so
 * every node it manages is `DOWN`, discovery finds nothing, and reachability runs the checks
 * that need no Erlang.
 */
export class BasicNodeConnector implements NodeConnector {
  readonly #managed = new Set<string>();
  readonly #probes: ReachabilityProbes;

  constructor(probes: ReachabilityProbes = networkProbes()) {
    this.#probes = probes;
  }

  connect(node: NodeTarget): Promise<NodeState> {
    this.#managed.add(node.id);
    return Promise.resolve('DOWN');
  }

  disconnect(nodeId: string): Promise<void> {
    this.#managed.delete(nodeId);
    return Promise.resolve();
  }

  state(nodeId: string): NodeState | undefined {
    return this.#managed.has(nodeId) ? 'DOWN' : undefined;
  }

  discover(_node: NodeTarget): Promise<string[]> {
    return Promise.resolve([]);
  }

  analyseReachability(name: string): Promise<ReachabilityReport> {
    return checkReachability(name, this.#probes);
  }
}
