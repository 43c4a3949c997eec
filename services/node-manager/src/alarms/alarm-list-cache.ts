/** Most cached list replies. */
export const ALARM_LIST_CACHE_ENTRIES = 256;
/** Most bytes of presented alarms the cache holds, all entries together (UTF-16 length). */
export const ALARM_LIST_CACHE_CHARS = 8 * 1024 * 1024;

/**
 * Recent alarm-list results, keyed by the whole query, dropped on any alarm write. Dashboards
 * poll the same lists (newest 20, a node's, a family's) far more often than alarms change, and
 * every poll would otherwise run the same query again.
 *
 * Correct only where this process sees every write: the repository calls `invalidate()` on each
 * one, and a result is stored only if no write happened since its query began (`generation`).
 * The repository enables it for SQLite, where the service is the one writer of alarms and
 * statements run one at a time on its connection; with PostgreSQL several services may share
 * the database, so it is off.
 */
export class AlarmListCache {
  readonly #entries = new Map<string, readonly string[]>();
  readonly #maxEntries: number;
  readonly #maxChars: number;
  #chars = 0;
  #generation = 0;

  constructor(maxEntries = ALARM_LIST_CACHE_ENTRIES, maxChars = ALARM_LIST_CACHE_CHARS) {
    this.#maxEntries = maxEntries;
    this.#maxChars = maxChars;
  }

  /** Changes on every `invalidate`; read it before querying, give it back to `set`. */
  get generation(): number {
    return this.#generation;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): readonly string[] | undefined {
    const hit = this.#entries.get(key);
    if (hit) {
      // Most recently used last, so eviction drops the oldest.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
    }
    return hit;
  }

  /** Stores `value` unless a write happened since `generation` was read, or it is too large. */
  set(key: string, generation: number, value: readonly string[]): void {
    if (generation !== this.#generation) return;
    const chars = value.reduce((n, text) => n + text.length, 0);
    if (chars > this.#maxChars / 8) return;
    const old = this.#entries.get(key);
    if (old) this.#remove(key, old);
    this.#entries.set(key, value);
    this.#chars += chars;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#chars <= this.#maxChars) break;
      this.#remove(oldest, entry);
    }
  }

  /** Forgets every result; called on every alarm write. */
  invalidate(): void {
    this.#generation += 1;
    this.#entries.clear();
    this.#chars = 0;
  }

  #remove(key: string, value: readonly string[]): void {
    this.#entries.delete(key);
    this.#chars -= value.reduce((n, text) => n + text.length, 0);
  }
}
