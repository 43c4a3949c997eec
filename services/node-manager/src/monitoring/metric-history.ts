import type {
  MetricHistoryRepository,
  HistoryResolution,
  TimedValue,
} from '../repositories/metric-history-repository.js';
import { escapeLabelValue } from './prometheus-text.js';
import type { MetricSample } from './metrics-store.js';

/** How long the history keeps what, ms. */
export interface MetricHistoryRetention {
  /** Raw samples, e.g. 24 h. */
  readonly rawMs: number;
  /** Per-minute averages, e.g. 30 days. */
  readonly minuteMs: number;
}

/** A read of one series. */
export interface HistoryRead {
  readonly resolution: HistoryResolution;
  readonly points: TimedValue[];
}

/** Longest time between two prunes, ms (10 min); shorter when the raw retention is short. */
const MAX_PRUNE_EVERY_MS = 600_000;

/**
 * The series name of a sample in the history: the Prometheus series without the `node` label,
 * e.g. `erlang_vm_process_count` or `erlang_vm_memory_bytes_total{kind="system"}`.
 */
export function seriesName(sample: MetricSample): string {
  const labels = Object.entries(sample.labels ?? {});
  if (labels.length === 0) return sample.name;
  return `${sample.name}{${labels.map(([k, v]) => `${k}="${escapeLabelValue(v)}"`).join(',')}}`;
}

/**
 * Metric history of the managed nodes: every kernel sample kept raw for `retention.rawMs` and as
 * per-minute averages for `retention.minuteMs`. Older data is pruned as new samples arrive (at
 * most every 10 min, or a tenth of the raw retention), so no timer outlives the service.
 */
export class MetricHistory {
  readonly #store: MetricHistoryRepository;
  readonly #retention: MetricHistoryRetention;
  readonly #now: () => number;
  readonly #pruneEveryMs: number;
  #lastPrune = -Infinity;
  #pruning: Promise<unknown> = Promise.resolve();

  constructor(store: MetricHistoryRepository, retention: MetricHistoryRetention, now: () => number = Date.now) {
    this.#store = store;
    this.#retention = retention;
    this.#now = now;
    this.#pruneEveryMs = Math.max(1, Math.min(MAX_PRUNE_EVERY_MS, Math.floor(retention.rawMs / 10)));
  }

  /** Stores one sample of a node (all its series at `at`), then prunes when it is time. */
  async record(nodeId: string, at: number, samples: readonly MetricSample[]): Promise<void> {
    await this.#store.record(
      nodeId,
      at,
      samples.map((s) => ({ name: seriesName(s), value: s.value })),
    );
    const now = this.#now();
    if (now - this.#lastPrune >= this.#pruneEveryMs) {
      this.#lastPrune = now;
      this.#pruning = this.#pruning.then(() => this.prune(now));
      await this.#pruning;
    }
  }

  /** Deletes what is past its retention at `now`; returns the rows deleted. */
  prune(now: number = this.#now()): Promise<number> {
    return this.#store.prune(now - this.#retention.rawMs, now - this.#retention.minuteMs);
  }

  /**
   * The points of a node's series between `from` and `to` (ms, inclusive): raw samples when the
   * range starts within the raw retention, else per-minute averages.
   */
  async read(nodeId: string, name: string, from: number, to: number): Promise<HistoryRead> {
    const resolution: HistoryResolution = from >= this.#now() - this.#retention.rawMs ? 'raw' : 'minute';
    return { resolution, points: await this.#store.read(nodeId, name, from, to, resolution) };
  }

  /** Whether the node has (had) a series of this name. */
  hasSeries(nodeId: string, name: string): Promise<boolean> {
    return this.#store.hasSeries(nodeId, name);
  }

  /** Every series name in the history, sorted. */
  names(): Promise<string[]> {
    return this.#store.names();
  }
}
