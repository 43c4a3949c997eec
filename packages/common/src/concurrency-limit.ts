/**
 * Runs at most `limit` tasks at a time; the others wait their turn in arrival order. Nothing is
 * refused: the queue is as long as the callers make it.
 */
export class ConcurrencyLimit {
  readonly limit: number;
  #running = 0;
  /** Starters of the waiting tasks, oldest first. */
  readonly #waiting: (() => void)[] = [];

  /** @throws RangeError unless `limit` is a positive integer. */
  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a concurrency limit must be >= 1, got ${limit}`);
    this.limit = limit;
  }

  /** Tasks running now. */
  get running(): number {
    return this.#running;
  }

  /** Tasks waiting for a turn. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Runs `task` once fewer than `limit` tasks run; settles as it does. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    // A finished task hands its slot to the oldest waiting one, so `running` never drops in between.
    if (this.#running >= this.limit) await new Promise<void>((start) => this.#waiting.push(start));
    else this.#running++;
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}
