/** Most cached results per cache. */
export const READ_CACHE_ENTRIES = 256;
/** Most "size" (as `sizeOf` counts it) one cache holds, all entries together. */
export const READ_CACHE_SIZE = 8 * 1024 * 1024;

/** Whether a repository keeps read caches: only where this process is the one writer (SQLite). */
export function readCachesFit(database: { capabilities: { concurrentWriters: boolean } }): boolean {
  return !database.capabilities.concurrentWriters;
}

/**
 * Recent results of a repository's hot reads (alarm lists keyed by the whole query, the node
 * list), dropped on any write of that repository. Dashboards poll the same lists far more often
 * than they change, and every poll would otherwise run the same query again.
 *
 * Correct only where this process sees every write: the repository calls `invalidate()` on each
 * one, and a result is stored only if no write happened since its query began (`generation`).
 * Repositories enable it for SQLite (`readCachesFit`), where the service is the one writer and
 * statements run one at a time on its connection; with PostgreSQL several services may share
 * the database, so it is off, except where the change bus tells of the other instances' writes:
 * then each result also expires after `maxAge.ms` (see `AlarmRepository`). `sizeOf` measures a
 * value (for strings: their length).
 */
export class ReadCache<V> {
  readonly #entries = new Map<string, V>();
  /** When each entry was stored (only with `maxAge`). */
  readonly #storedAt = new Map<string, number>();
  readonly #sizeOf: (value: V) => number;
  readonly #maxEntries: number;
  readonly #maxSize: number;
  readonly #maxAge: { readonly ms: number; readonly now: () => number } | undefined;
  #size = 0;
  #generation = 0;

  constructor(
    sizeOf: (value: V) => number,
    maxEntries = READ_CACHE_ENTRIES,
    maxSize = READ_CACHE_SIZE,
    maxAge?: { readonly ms: number; readonly now: () => number },
  ) {
    this.#sizeOf = sizeOf;
    this.#maxEntries = maxEntries;
    this.#maxSize = maxSize;
    this.#maxAge = maxAge;
  }

  /** Changes on every `invalidate`; read it before querying, give it back to `set`. */
  get generation(): number {
    return this.#generation;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): V | undefined {
    const hit = this.#entries.get(key);
    if (hit !== undefined && this.#maxAge && this.#maxAge.now() - (this.#storedAt.get(key) ?? 0) >= this.#maxAge.ms) {
      this.#remove(key, hit);
      return undefined;
    }
    if (hit !== undefined) {
      // Most recently used last, so eviction drops the oldest.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
    }
    return hit;
  }

  /** Stores `value` unless a write happened since `generation` was read, or it is too large. */
  set(key: string, generation: number, value: V): void {
    if (generation !== this.#generation) return;
    const size = this.#sizeOf(value);
    if (size > this.#maxSize / 8) return;
    const old = this.#entries.get(key);
    if (old !== undefined) this.#remove(key, old);
    this.#entries.set(key, value);
    if (this.#maxAge) this.#storedAt.set(key, this.#maxAge.now());
    this.#size += size;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#size <= this.#maxSize) break;
      this.#remove(oldest, entry);
    }
  }

  /** The cached value of `key`, else `load()`'s, stored unless a write happened meanwhile. */
  async through(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const generation = this.#generation;
    const value = await load();
    this.set(key, generation, value);
    return value;
  }

  /** Forgets every result; called on every write of the owning repository. */
  invalidate(): void {
    this.#generation += 1;
    this.#entries.clear();
    this.#storedAt.clear();
    this.#size = 0;
  }

  #remove(key: string, value: V): void {
    this.#entries.delete(key);
    this.#storedAt.delete(key);
    this.#size -= this.#sizeOf(value);
  }
}
