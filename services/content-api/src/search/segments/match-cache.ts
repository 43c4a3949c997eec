/** Seqs a `MatchCache` holds at most by default: 32 MB of `Float64Array`. */
export const MATCH_CACHE_SEQS = 4_000_000;

/** What a cache holds per key: a list, or something derived from lists (counted by its seqs). */
type Held = Float64Array | { readonly seqs: Float64Array };

function seqsOf(held: Held): number {
  return held instanceof Float64Array ? held.length : held.seqs.length;
}

/**
 * The match lists (ascending seqs) of text queries, kept for one version of the text index: a
 * word asked again is not read from the index and parsed again. Lists are shared, never to be
 * changed by a caller. Past `maxSeqs` seqs held, the least recently used lists are dropped; a
 * list longer than that is not kept. Another version (compared with `===`: an object by identity,
 * a string by value) drops everything; a catalog change that leaves the words alone (a price
 * delta) keeps the version, and so the lists.
 */
export class MatchCache {
  readonly #maxSeqs: number;
  #version: object | string | undefined;
  /** In order of last use, oldest first. */
  readonly #lists = new Map<string, Held>();
  #held = 0;

  constructor(maxSeqs = MATCH_CACHE_SEQS) {
    this.#maxSeqs = maxSeqs;
  }

  /** Seqs held now, for tests and statistics. */
  get held(): number {
    return this.#held;
  }

  /** The list of `key` in text index `version`, read with `read` when not held. */
  get(version: object | string, key: string, read: () => Float64Array): Float64Array {
    return this.#get(version, key, read);
  }

  /**
   * What `read` derives from lists (a query word's articles with their match classes), kept as a
   * list is and counted by its `seqs`. Keys share one space with `get`'s: the caller keeps the
   * kinds apart (a prefix of their own).
   */
  kept<T extends { readonly seqs: Float64Array }>(version: object | string, key: string, read: () => T): T {
    return this.#get(version, key, read);
  }

  #get<T extends Held>(version: object | string, key: string, read: () => T): T {
    if (version !== this.#version) {
      this.#lists.clear();
      this.#held = 0;
      this.#version = version;
    }
    const hit = this.#lists.get(key);
    if (hit) {
      this.#lists.delete(key);
      this.#lists.set(key, hit);
      return hit as T;
    }
    const list = read();
    const size = seqsOf(list);
    if (size > this.#maxSeqs) return list;
    this.#lists.set(key, list);
    this.#held += size;
    for (const [oldest, dropped] of this.#lists) {
      if (this.#held <= this.#maxSeqs) break;
      this.#lists.delete(oldest);
      this.#held -= seqsOf(dropped);
    }
    return list;
  }
}
