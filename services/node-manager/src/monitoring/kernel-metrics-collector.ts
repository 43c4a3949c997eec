import { exportFun, list, type Term } from '@triad/erlang-dist';
import { COLLECTOR_RPC_TIMEOUT_MS, type Collector, type MonitoredNode, type RpcCaller } from './collector.js';
import { KERNEL_METRIC_FAMILIES, KERNEL_READINGS } from './kernel-metric-readings.js';
import type { MetricSample, MetricsStore } from './metrics-store.js';

export { KERNEL_METRIC_FAMILIES } from './kernel-metric-readings.js';

/** Plugin that switches the kernel metrics collector. */
export const KERNEL_METRICS_PLUGIN = 'wombat_plugin_builtin_metrics';

/** Where a node's samples go besides `/metrics` (the metric history); a rejection fails the collection. */
export type KernelSampleSink = (node: MonitoredNode, at: number, samples: readonly MetricSample[]) => Promise<void>;

/**
 * The one RPC of a sample: `lists:zipwith(fun erlang:apply/2, Funs, ArgLists)` runs every reading
 * of `KERNEL_READINGS` in one process on the node, in order, so no other call of ours is in flight
 * while the run queue is read (seven parallel RPCs used to put 4-6 of our own processes in it).
 * Only standard OTP functions are called; nothing is loaded onto the node.
 */
export const KERNEL_SAMPLE_CALL = Object.freeze({
  module: 'lists',
  fn: 'zipwith',
  args: Object.freeze<Term[]>([
    exportFun('erlang', 'apply', 2),
    list(KERNEL_READINGS.map((r) => exportFun(r.module, r.fn, r.args.length))),
    list(KERNEL_READINGS.map((r) => list(r.args))),
  ]),
});

/** The samples in the reply of `KERNEL_SAMPLE_CALL`. @throws Error when the reply has another shape. */
export function kernelSamples(reply: Term): MetricSample[] {
  const results = reply.type === 'list' && reply.tail.type === 'nil' ? reply.elements : undefined;
  if (results?.length !== KERNEL_READINGS.length)
    throw new Error(`kernel sample: expected ${KERNEL_READINGS.length} results, got ${reply.type}`);
  return KERNEL_READINGS.flatMap((reading, i) => reading.samples(results[i]!));
}

/**
 * Samples a node's memory, counts and limits, run queue, reductions, uptime, I/O and GC (the
 * prometheus.erl names, `KERNEL_METRIC_FAMILIES`) with one RPC, keeps the set in `store` for
 * `/metrics` and hands it to `sink` (the history).
 */
export class KernelMetricsCollector implements Collector {
  readonly plugin = KERNEL_METRICS_PLUGIN;
  readonly defaultOn = true;
  readonly intervalMs: number;
  readonly #rpc: RpcCaller;
  readonly #store: MetricsStore;
  readonly #now: () => number;
  readonly #sink: KernelSampleSink | undefined;

  constructor(
    rpc: RpcCaller,
    store: MetricsStore,
    intervalMs: number,
    now: () => number = Date.now,
    sink?: KernelSampleSink,
  ) {
    this.#rpc = rpc;
    this.#store = store;
    this.intervalMs = intervalMs;
    this.#now = now;
    this.#sink = sink;
    store.declare(KERNEL_METRIC_FAMILIES);
  }

  async collect(node: MonitoredNode): Promise<void> {
    const reply = await this.#rpc.rpc(
      node.id,
      KERNEL_SAMPLE_CALL.module,
      KERNEL_SAMPLE_CALL.fn,
      KERNEL_SAMPLE_CALL.args,
      {
        timeoutMs: COLLECTOR_RPC_TIMEOUT_MS,
      },
    );
    const samples = kernelSamples(reply);
    const at = this.#now();
    this.#store.put(node.id, { nodeName: node.name, at, samples });
    await this.#sink?.(node, at, samples);
  }

  stop(node: MonitoredNode): Promise<void> {
    this.#store.remove(node.id);
    return Promise.resolve();
  }

  /** Another instance samples the node now: its series leave this instance's `/metrics`. */
  released(node: MonitoredNode): void {
    this.#store.remove(node.id);
  }

  /** A node that is not UP has no current values: its series leave `/metrics`. */
  paused(node: MonitoredNode): Promise<void> {
    this.#store.remove(node.id);
    return Promise.resolve();
  }
}
