/**
 * Deletes device history past its retention (decision 0050): every `intervalMs`, batches of at
 * most `batchSize` rows per table until nothing more is due, yielding to other work between
 * batches. Runs on one instance of a PostgreSQL database: `DeviceCollection` starts and stops it
 * with the work lease of `HISTORY_SWEEP_ITEM`.
 */
import type { DeviceHistoryRepository } from '../repositories/device-history-repository.js';

/** The work-lease item whose holder sweeps (no device id has this form: they are UUIDs). */
export const HISTORY_SWEEP_ITEM = '~device-history-sweep';

export interface HistorySweeperOptions {
  readonly repository: Pick<DeviceHistoryRepository, 'sweep'>;
  /** How long raw values are kept, ms. */
  readonly rawRetentionMs: number;
  /** How long minute rows are kept, ms. */
  readonly minuteRetentionMs: number;
  /** Time between sweeps, ms. */
  readonly intervalMs: number;
  /** Most rows deleted per table in one statement. */
  readonly batchSize: number;
  readonly log: { info(object: object, message: string): void; warn(object: object, message: string): void };
  readonly now?: () => number;
}

export class HistorySweeper {
  readonly #options: HistorySweeperOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;
  #stopping = false;

  constructor(options: HistorySweeperOptions) {
    this.#options = options;
  }

  /** Sweeps now, then every `intervalMs` until `stop`. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#stopping = false;
    this.#timer = setInterval(() => void this.sweep(), this.#options.intervalMs);
    this.#timer.unref();
    void this.sweep();
  }

  /** Stops the timer; a sweep under way ends after its current batch. */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** One sweep (unless one is under way): returns the rows deleted. */
  async sweep(): Promise<number> {
    if (this.#running !== undefined) return 0;
    this.#running = this.#sweep();
    try {
      return await this.#running;
    } finally {
      this.#running = undefined;
    }
  }

  async #sweep(): Promise<number> {
    const { repository, batchSize, log } = this.#options;
    const now = (this.#options.now ?? Date.now)();
    const rawBefore = now - this.#options.rawRetentionMs;
    const minuteBefore = now - this.#options.minuteRetentionMs;
    let total = 0;
    try {
      for (;;) {
        const deleted = await repository.sweep(rawBefore, minuteBefore, batchSize);
        total += deleted;
        if (deleted < batchSize || this.#stopping) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      log.warn({ err: error }, 'device history sweep failed; trying again at the next one');
    }
    if (total > 0) log.info({ deleted: total }, 'device history past its retention deleted');
    return total;
  }
}
