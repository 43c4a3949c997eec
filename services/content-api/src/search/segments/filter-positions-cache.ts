import type { FacetDictionary } from './facet-dictionary.js';
import type { SegmentSnapshot } from './segment-snapshot.js';
import type { Segment } from './segment.js';

/** Positions a `FilterPositionsCache` holds at most by default: 16 MB of `Uint32Array`. */
export const FILTER_CACHE_POSITIONS = 4_000_000;

/** What `segmentFilterPositions` gives for one segment: all, none, or the passing positions. */
export type FilterPositions = boolean | Uint32Array;

/**
 * The passing positions of filters, per filter text and segment, for one snapshot (issue 30: a
 * filter without words scanned every article of the catalog on every request, and buyers repeat
 * filters). Lists are shared, never to be changed by a caller. Past `maxPositions` positions
 * held, the least recently used filters are dropped whole; a filter whose lists together are
 * longer than that is not kept. Segments never change once loaded and a change of the catalog
 * makes a new snapshot, which starts with the positions of the segments it kept
 * (`filterPositionsCache`).
 */
export class FilterPositionsCache {
  readonly #maxPositions: number;
  /** By filter text, in order of last use, oldest first. */
  readonly #filters = new Map<string, { readonly bySegment: Map<Segment, FilterPositions>; held: number }>();
  #held = 0;

  constructor(maxPositions = FILTER_CACHE_POSITIONS) {
    this.#maxPositions = maxPositions;
  }

  /** Positions held now, for tests and statistics. */
  get held(): number {
    return this.#held;
  }

  /** The positions of `segment` passing the filter `key`, computed with `compute` when not held. */
  positions(key: string, segment: Segment, compute: () => FilterPositions): FilterPositions {
    let entry = this.#filters.get(key);
    if (entry) {
      // Most recently used last.
      this.#filters.delete(key);
      this.#filters.set(key, entry);
      const hit = entry.bySegment.get(segment);
      if (hit !== undefined) return hit;
    }
    const positions = compute();
    const length = typeof positions === 'boolean' ? 0 : positions.length;
    if ((entry?.held ?? 0) + length > this.#maxPositions) {
      if (entry) this.#drop(key);
      return positions;
    }
    if (!entry) {
      entry = { bySegment: new Map(), held: 0 };
      this.#filters.set(key, entry);
    }
    entry.bySegment.set(segment, positions);
    entry.held += length;
    this.#held += length;
    for (const oldest of this.#filters.keys()) {
      if (this.#held <= this.#maxPositions) break;
      this.#drop(oldest);
    }
    return positions;
  }

  /**
   * Takes over the positions `before` holds for `segments` (in its order of use): those of a
   * snapshot's segments that the next snapshot kept as they were.
   */
  carryOver(before: FilterPositionsCache, segments: ReadonlySet<Segment>): void {
    for (const [key, entry] of before.#filters) {
      const bySegment = new Map<Segment, FilterPositions>();
      let held = 0;
      for (const [segment, positions] of entry.bySegment) {
        if (!segments.has(segment)) continue;
        bySegment.set(segment, positions);
        held += typeof positions === 'boolean' ? 0 : positions.length;
      }
      if (bySegment.size === 0 || this.#held + held > this.#maxPositions) continue;
      this.#filters.set(key, { bySegment, held });
      this.#held += held;
    }
  }

  #drop(key: string): void {
    const entry = this.#filters.get(key);
    if (!entry) return;
    this.#filters.delete(key);
    this.#held -= entry.held;
  }
}

const caches = new WeakMap<SegmentSnapshot, FilterPositionsCache>();
/** The cache made last for a snapshot over each dictionary: the next snapshot's starts from it. */
const newest = new WeakMap<FacetDictionary, FilterPositionsCache>();

/**
 * The filter positions kept for `snapshot` (one cache per snapshot and thread; the old one goes
 * with its snapshot). A new snapshot, as every import, delta or shop change makes, starts with the
 * positions of the segments it kept from the snapshot before it over the same dictionary: a
 * segment never changes once loaded, and a dictionary only gains values, which no kept segment
 * holds, so the positions passing a filter there stay as they were.
 */
export function filterPositionsCache(snapshot: SegmentSnapshot): FilterPositionsCache {
  let cache = caches.get(snapshot);
  if (!cache) {
    cache = new FilterPositionsCache();
    const before = newest.get(snapshot.dictionary);
    if (before) cache.carryOver(before, new Set(snapshot.segments));
    caches.set(snapshot, cache);
    newest.set(snapshot.dictionary, cache);
  }
  return cache;
}
