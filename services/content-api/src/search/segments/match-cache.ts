/** Seqs a `MatchCache` holds at most by default: 32 MB of `Float64Array`. */
export const MATCH_CACHE_SEQS = 4_000_000;

/**
 * Seqs a reader's `MatchCache` may hold per article of its catalog, when that is more than
 * `MATCH_CACHE_SEQS` (`matchCacheSeqs`): 32 bytes per article, as much as 1,000,000 articles got
 * from the default. A word's list grows with the catalog, so a fixed bound held ever fewer words:
 * at 10,000,000 articles the lists of the benchmark's six one-word queries alone were more than
 * 4,000,000 seqs, and every search read and parsed its lists again (issue 30).
 */
export const MATCH_CACHE_SEQS_PER_ARTICLE = 4;

/** The bound of a reader's `MatchCache` over a catalog of `articles`. */
export function matchCacheSeqs(articles: number): number {
  return Math.max(MATCH_CACHE_SEQS, MATCH_CACHE_SEQS_PER_ARTICLE * articles);
}

/** What a cache holds per key: a list, or something derived from lists (counted by its seqs). */
type Held = Float64Array | { readonly seqs: Float64Array };

/** The list a key had under an earlier version of the words (`MatchCache.get`). */
export interface EarlierList {
  readonly version: object | string;
  readonly seqs: Float64Array;
}

function seqsOf(held: Held): Float64Array {
  return held instanceof Float64Array ? held : held.seqs;
}

/**
 * The match lists (ascending seqs) of text queries, kept for one version of the text index: a
 * word asked again is not read from the index and parsed again. Lists are shared, never to be
 * changed by a caller. Past `maxSeqs` seqs held, the least recently used lists are dropped; a
 * list longer than that is not kept. Entries over the same array of seqs (a word matched by one
 * indexed word only: its list and its merged matches) count it once. Another version (compared
 * with `===`: an object by identity, a string by value) drops what was derived and keeps the lists
 * as the earlier version's: the next read of the same key is offered its earlier list (`get`'s
 * `read`), which a reader may take the parts the change left alone from (a delta changes one
 * shop's words). Each earlier list is offered once; they count towards the bound and go first. A
 * catalog change that leaves the words alone (a price delta) keeps the version, and so the lists.
 */
export class MatchCache {
  #maxSeqs: number;
  #version: object | string | undefined;
  /** In order of last use, oldest first. */
  readonly #lists = new Map<string, Held>();
  /** The lists of `#earlierVersion`, the last version that held any before this one, oldest first. */
  #earlier = new Map<string, Float64Array>();
  #earlierVersion: object | string | undefined;
  /** Entries holding each array of seqs (by its buffer): it counts once, until the last goes. */
  readonly #holders = new Map<ArrayBufferLike, number>();
  #held = 0;

  constructor(maxSeqs = MATCH_CACHE_SEQS) {
    this.#maxSeqs = maxSeqs;
  }

  /** Seqs held now (each array once), for tests and statistics. */
  get held(): number {
    return this.#held;
  }

  /** The bound: past it the least recently used lists go (at the next list kept). */
  get maxSeqs(): number {
    return this.#maxSeqs;
  }

  set maxSeqs(seqs: number) {
    this.#maxSeqs = seqs;
  }

  /**
   * The list of `key` in text index `version`, read with `read` when not held; `read` is given
   * the list `key` had under the earlier version, if that is still held (then let go).
   */
  get(version: object | string, key: string, read: (earlier?: EarlierList) => Float64Array): Float64Array {
    return this.#get(version, key, () => {
      const earlier = this.#earlier.get(key);
      if (!earlier || this.#earlierVersion === undefined) return read();
      this.#earlier.delete(key);
      try {
        return read({ version: this.#earlierVersion, seqs: earlier });
      } finally {
        this.#hold(earlier, -1);
      }
    });
  }

  /** Earlier lists still held (for tests). */
  get earlierLists(): number {
    return this.#earlier.size;
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
    if (version !== this.#version) this.#changeVersion(version);
    const hit = this.#lists.get(key);
    if (hit) {
      this.#lists.delete(key);
      this.#lists.set(key, hit);
      return hit as T;
    }
    const list = read();
    const seqs = seqsOf(list);
    if (seqs.length > this.#maxSeqs) return list;
    this.#lists.set(key, list);
    this.#hold(seqs, 1);
    for (const [oldest, dropped] of this.#earlier) {
      if (this.#held <= this.#maxSeqs) break;
      this.#earlier.delete(oldest);
      this.#hold(dropped, -1);
    }
    for (const [oldest, dropped] of this.#lists) {
      if (this.#held <= this.#maxSeqs) break;
      this.#lists.delete(oldest);
      this.#hold(seqsOf(dropped), -1);
    }
    return list;
  }

  /**
   * Makes `version` current: the lists of the version before become the earlier ones (what was
   * derived goes); when that version held none, the earlier lists stay those of the one before.
   */
  #changeVersion(version: object | string): void {
    if (this.#lists.size > 0) {
      for (const dropped of this.#earlier.values()) this.#hold(dropped, -1);
      this.#earlier = new Map();
      this.#earlierVersion = this.#version;
      for (const [key, held] of this.#lists) {
        if (held instanceof Float64Array) this.#earlier.set(key, held);
        else this.#hold(held.seqs, -1);
      }
      this.#lists.clear();
    }
    this.#version = version;
  }

  /** Counts one more (`+1`) or one fewer (`-1`) entry over `seqs`; the first and the last count its length. */
  #hold(seqs: Float64Array, change: 1 | -1): void {
    if (seqs.length === 0) return;
    const holders = (this.#holders.get(seqs.buffer) ?? 0) + change;
    if (holders === 0) this.#holders.delete(seqs.buffer);
    else this.#holders.set(seqs.buffer, holders);
    if (holders === (change === 1 ? 1 : 0)) this.#held += change * seqs.length;
  }
}
