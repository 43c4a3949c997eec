import { atom, listElements, tupleOf, type Term } from '@triad/erlang-dist';
import { COLLECTOR_RPC_TIMEOUT_MS, type Collector, type MonitoredNode, type RpcCaller } from './collector.js';
import type { MetricFamily, MetricSample, MetricsStore } from './metrics-store.js';

/** Plugin that switches the kernel metrics collector. */
export const KERNEL_METRICS_PLUGIN = 'wombat_plugin_builtin_metrics';

/** The families this collector exports at `GET /metrics`. */
export const KERNEL_METRIC_FAMILIES: readonly MetricFamily[] = Object.freeze([
  {
    name: 'erlang_memory_bytes',
    type: 'gauge',
    help: 'erlang:memory() of the node, by kind (total, processes, system, atom, binary, code, ets ...).',
  },
  {
    name: 'erlang_process_count',
    type: 'gauge',
    help: 'erlang:system_info(process_count): processes alive on the node.',
  },
  {
    name: 'erlang_process_limit',
    type: 'gauge',
    help: 'erlang:system_info(process_limit): most processes the node may hold.',
  },
  { name: 'erlang_run_queue', type: 'gauge', help: 'erlang:statistics(run_queue): processes ready to run.' },
  {
    name: 'erlang_reductions_total',
    type: 'counter',
    help: 'erlang:statistics(reductions): reductions since the node started.',
  },
  { name: 'erlang_port_count', type: 'gauge', help: 'erlang:system_info(port_count): ports open on the node.' },
  { name: 'erlang_atom_count', type: 'gauge', help: 'erlang:system_info(atom_count): atoms in the atom table.' },
] as const);

function integer(term: Term | undefined, what: string): number {
  if (term?.type !== 'integer') throw new Error(`${what} is not an integer`);
  return Number(term.value);
}

/**
 * Samples `erlang:memory()`, process count and limit, run queue, reductions, port and atom counts
 * of a node through seven RPCs in parallel, and keeps them in `store` (the last set per node).
 */
export class KernelMetricsCollector implements Collector {
  readonly plugin = KERNEL_METRICS_PLUGIN;
  readonly defaultOn = true;
  readonly intervalMs: number;
  readonly #rpc: RpcCaller;
  readonly #store: MetricsStore;
  readonly #now: () => number;

  constructor(rpc: RpcCaller, store: MetricsStore, intervalMs: number, now: () => number = Date.now) {
    this.#rpc = rpc;
    this.#store = store;
    this.intervalMs = intervalMs;
    this.#now = now;
    store.declare(KERNEL_METRIC_FAMILIES);
  }

  async collect(node: MonitoredNode): Promise<void> {
    const call = (module: string, fn: string, args: Term[]) =>
      this.#rpc.rpc(node.id, module, fn, args, { timeoutMs: COLLECTOR_RPC_TIMEOUT_MS });
    const [memory, processes, limit, runQueue, reductions, ports, atoms] = await Promise.all([
      call('erlang', 'memory', []),
      call('erlang', 'system_info', [atom('process_count')]),
      call('erlang', 'system_info', [atom('process_limit')]),
      call('erlang', 'statistics', [atom('run_queue')]),
      call('erlang', 'statistics', [atom('reductions')]),
      call('erlang', 'system_info', [atom('port_count')]),
      call('erlang', 'system_info', [atom('atom_count')]),
    ]);
    const samples: MetricSample[] = [];
    for (const entry of listElements(memory) ?? []) {
      const pair = tupleOf(entry, 2);
      if (pair?.[0]?.type === 'atom')
        samples.push({
          name: 'erlang_memory_bytes',
          labels: { kind: pair[0].name },
          value: integer(pair[1], 'memory'),
        });
    }
    if (samples.length === 0) throw new Error('erlang:memory() gave no {Kind, Bytes} pairs');
    samples.push(
      { name: 'erlang_process_count', value: integer(processes, 'process_count') },
      { name: 'erlang_process_limit', value: integer(limit, 'process_limit') },
      { name: 'erlang_run_queue', value: integer(runQueue, 'run_queue') },
      { name: 'erlang_reductions_total', value: integer(tupleOf(reductions, 2)?.[0], 'reductions') },
      { name: 'erlang_port_count', value: integer(ports, 'port_count') },
      { name: 'erlang_atom_count', value: integer(atoms, 'atom_count') },
    );
    this.#store.put(node.id, { nodeName: node.name, at: this.#now(), samples });
  }

  stop(node: MonitoredNode): Promise<void> {
    this.#store.remove(node.id);
    return Promise.resolve();
  }

  /** A node that is not UP has no current values: its series leave `/metrics`. */
  paused(node: MonitoredNode): Promise<void> {
    this.#store.remove(node.id);
    return Promise.resolve();
  }
}
