/**
 * Keeps the values collected here in the device history (decision 0050) without ever holding
 * collection up: `record` only converts and queues (synchronously), and a timer writes the queue
 * in batches, one transaction each. The queue is bounded: values arriving while it is full are
 * dropped, counted (`stats.dropped`) and logged at most once a minute. A failed batch goes back to
 * the front of the queue (as far as there is room) and is tried again at the next flush. `close`
 * writes everything queued, so a value `record` accepted survives an orderly stop. `heartbeat`
 * queues values that did not change again, stamped now (`HistoryHeartbeat` decides which).
 */
import type { DatapointResult } from '@triad/device-templates';
import { rowOf } from '../model/device-place.js';
import { HISTORY_TEXT_MAX, type HistoryValue } from '../model/device-history.js';
import type { DeviceHistoryRepository } from '../repositories/device-history-repository.js';

export interface HistoryWriterOptions {
  /** Where batches go; `close`, when it has one, is called by the writer's own. */
  readonly repository: Pick<DeviceHistoryRepository, 'write'> & { close?(): Promise<void> };
  /** Most values waiting to be written; more are dropped. */
  readonly maxQueued: number;
  /** Time between writes, ms. */
  readonly flushMs: number;
  /** Most values in one transaction. */
  readonly batchSize: number;
  readonly log: { warn(object: object, message: string): void };
  readonly now?: () => number;
}

/** What the writer did since it started. */
export interface HistoryWriterStats {
  /** Values accepted and not yet written: waiting for a flush, or in the batch being written. */
  readonly queued: number;
  readonly written: number;
  readonly dropped: number;
  readonly failedBatches: number;
  /** Of `queued` and `written`: values queued again by `heartbeat`. */
  readonly heartbeats: number;
}

/**
 * Values of one device as `record` or `heartbeat` got them, not yet converted: `results[from, to)`,
 * stamped `at` (a heartbeat) or their own time. One entry per call rather than one object per value:
 * at 20,000 values a second, values waiting a second for the flush outlive the young generation,
 * so each object queued became old-generation garbage (and grew the heap) once written.
 */
interface Pending {
  readonly deviceId: string;
  readonly results: readonly DatapointResult[];
  readonly from: number;
  readonly to: number;
  readonly at: number | undefined;
}

/** At most one "queue full" warning in this time. */
const DROP_LOG_INTERVAL_MS = 60_000; // 1 min

export class HistoryWriter {
  readonly #options: HistoryWriterOptions;
  #queue: Pending[] = [];
  /** Values in `#queue`. */
  #queued = 0;
  /** Values taken from the queue by the flush under way, not yet written (nor put back). */
  #writing = 0;
  #written = 0;
  #dropped = 0;
  #droppedLogged = 0;
  #lastDropLog = -Infinity;
  #failedBatches = 0;
  #heartbeats = 0;
  #flushing: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: HistoryWriterOptions) {
    this.#options = options;
    this.#timer = setInterval(() => void this.flush(), options.flushMs);
    this.#timer.unref();
  }

  get stats(): HistoryWriterStats {
    return {
      queued: this.#queued + this.#writing,
      written: this.#written,
      dropped: this.#dropped,
      failedBatches: this.#failedBatches,
      heartbeats: this.#heartbeats,
    };
  }

  /**
   * Queues the values of one device; returns how many were accepted (the rest found the queue full,
   * or the writer closed). Never waits.
   */
  record(deviceId: string, results: readonly DatapointResult[]): number {
    return this.#enqueue(deviceId, results, undefined);
  }

  /**
   * Queues values of one device again, stamped `at` instead of their own time: the heartbeat of
   * values that did not change (decision 0050, "Flat values"). Otherwise as `record`.
   */
  heartbeat(deviceId: string, results: readonly DatapointResult[], at: number): number {
    const accepted = this.#enqueue(deviceId, results, at);
    this.#heartbeats += accepted;
    return accepted;
  }

  #enqueue(deviceId: string, results: readonly DatapointResult[], at: number | undefined): number {
    const room = this.#closed ? 0 : Math.max(0, this.#options.maxQueued - this.#queued);
    const accepted = Math.min(results.length, room);
    if (accepted > 0) {
      this.#queue.push({ deviceId, results, from: 0, to: accepted, at });
      this.#queued += accepted;
    }
    this.#drop(results.length - accepted);
    if (this.#queued >= this.#options.batchSize && this.#flushing === undefined) void this.flush();
    return accepted;
  }

  /** Writes everything queued before the call; resolves when it is written (or failed and re-queued). */
  async flush(): Promise<void> {
    while (this.#flushing !== undefined) await this.#flushing;
    if (this.#queued === 0) return;
    this.#flushing = this.#writeAll();
    try {
      await this.#flushing;
    } finally {
      this.#flushing = undefined;
    }
  }

  /** Stops accepting values and writes every queued one (one more try for a batch that fails). */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
    if (this.#queued > 0) await this.flush();
    if (this.#queued > 0)
      this.#options.log.warn({ values: this.#queued }, 'device history: values not written at close');
    await this.#options.repository.close?.();
  }

  async #writeAll(): Promise<void> {
    const pending = this.#queue;
    this.#queue = [];
    this.#writing = this.#queued;
    this.#queued = 0;
    const { batchSize } = this.#options;
    let next = 0;
    while (next < pending.length) {
      // The next `batchSize` values, converted now; `parts` are the entries (or pieces) they came from.
      const batch: HistoryValue[] = [];
      const parts: Pending[] = [];
      while (next < pending.length && batch.length < batchSize) {
        const entry = pending[next]!;
        const take = Math.min(entry.to - entry.from, batchSize - batch.length);
        const part = take === entry.to - entry.from ? entry : { ...entry, to: entry.from + take };
        for (let i = part.from; i < part.to; i++) batch.push(historyValue(part.deviceId, part.results[i]!, part.at));
        parts.push(part);
        if (part === entry) next++;
        else pending[next] = { ...entry, from: part.to };
      }
      try {
        await this.#options.repository.write(batch);
        this.#written += batch.length;
        this.#writing -= batch.length;
      } catch (error) {
        this.#writing = 0;
        this.#failedBatches++;
        this.#options.log.warn({ err: error, values: batch.length }, 'device history: batch not written, kept');
        this.#requeue([...parts, ...pending.slice(next)]);
        return;
      }
    }
  }

  /** Puts `back` in front of what arrived meanwhile, as far as the bound allows; the oldest go first. */
  #requeue(back: Pending[]): void {
    const count = back.reduce((sum, entry) => sum + entry.to - entry.from, 0);
    const room = Math.max(0, this.#options.maxQueued - this.#queued);
    let excess = Math.max(0, count - room);
    this.#drop(excess);
    let first = 0;
    while (excess > 0) {
      const entry = back[first]!;
      const size = entry.to - entry.from;
      if (size <= excess) {
        first++;
        excess -= size;
      } else {
        back[first] = { ...entry, from: entry.from + excess };
        excess = 0;
      }
    }
    this.#queue = [...back.slice(first), ...this.#queue];
    this.#queued += Math.min(count, room);
  }

  #drop(count: number): void {
    if (count <= 0) return;
    this.#dropped += count;
    const now = (this.#options.now ?? Date.now)();
    if (now - this.#lastDropLog < DROP_LOG_INTERVAL_MS) return;
    this.#options.log.warn(
      { dropped: this.#dropped - this.#droppedLogged, maxQueued: this.#options.maxQueued },
      'device history: queue full, values dropped (TRIAD_DEVICE_HISTORY_QUEUE)',
    );
    this.#lastDropLog = now;
    this.#droppedLogged = this.#dropped;
  }
}

/** A collected value as the history stores it: numbers and booleans as numbers, the rest as text. */
export function historyValue(deviceId: string, result: DatapointResult, at = result.timestamp): HistoryValue {
  const { value } = result;
  let number: number | null = null;
  let text: string | null = null;
  if (typeof value === 'number') number = Number.isFinite(value) ? value : null;
  else if (typeof value === 'boolean') number = value ? 1 : 0;
  else if (typeof value === 'bigint') number = Number(value);
  else if (value !== null && value !== undefined)
    text = (typeof value === 'string' ? value : JSON.stringify(value)).slice(0, HISTORY_TEXT_MAX);
  // One object of one shape (the profile of the scale bench: spreads cost 6 % of the service's CPU).
  return {
    deviceId,
    setId: result.datapointSetId,
    datapointId: result.datapointId,
    row: rowOf(result.tableIndex) ?? '',
    at,
    value: number,
    text,
  };
}
