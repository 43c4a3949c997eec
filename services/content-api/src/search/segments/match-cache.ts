/** Seqs a `MatchCache` holds at most by default: 32 MB of `Float64Array`. */
export const MATCH_CACHE_SEQS = 4_000_000;

/**
 * The match lists (ascending seqs) of text queries, kept for one catalog snapshot: a word asked
 * again is not read from the text index and parsed again. Lists are shared, never to be changed
 * by a caller. Past `maxSeqs` seqs held, the least recently used lists are dropped; a list longer
 * than that is not kept. A new owner (the next snapshot) drops everything.
 */
export class MatchCache {
  readonly #maxSeqs: number;
  #owner: object | undefined;
  /** In order of last use, oldest first. */
  readonly #lists = new Map<string, Float64Array>();
  #held = 0;

  constructor(maxSeqs = MATCH_CACHE_SEQS) {
    this.#maxSeqs = maxSeqs;
  }

  /** Seqs held now, for tests and statistics. */
  get held(): number {
    return this.#held;
  }

  /** The list of `key` under `owner`, read with `read` when not held. */
  get(owner: object, key: string, read: () => Float64Array): Float64Array {
    if (owner !== this.#owner) {
      this.#lists.clear();
      this.#held = 0;
      this.#owner = owner;
    }
    const hit = this.#lists.get(key);
    if (hit) {
      this.#lists.delete(key);
      this.#lists.set(key, hit);
      return hit;
    }
    const list = read();
    if (list.length > this.#maxSeqs) return list;
    this.#lists.set(key, list);
    this.#held += list.length;
    for (const [oldest, dropped] of this.#lists) {
      if (this.#held <= this.#maxSeqs) break;
      this.#lists.delete(oldest);
      this.#held -= dropped.length;
    }
    return list;
  }
}
