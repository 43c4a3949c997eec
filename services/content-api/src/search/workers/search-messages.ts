import type { FacetCount, SearchQuery } from '../search-query.js';
import type { DictionaryEntry, FacetDictionary } from '../segments/facet-dictionary.js';
import type { SegmentColumns } from '../segments/segment-columns.js';
import type { SegmentHeader } from '../segments/segment.js';

/** A loaded segment as a worker receives it: its columns and `idRank` share the loader's memory. */
export interface PostedSegment {
  /** Names the main thread's `Segment` object: a worker keeps its own copy of it while it stays. */
  readonly id: number;
  readonly header: SegmentHeader;
  readonly columns: SegmentColumns;
  readonly idRank: Uint32Array;
  /**
   * Names the main thread's `FacetCountsCell` of the segment: segments posted with the same one
   * (a price delta keeps the facet columns) share the worker's counts too.
   */
  readonly facets: number;
}

/** Main thread to worker. */
export type ToWorker =
  | {
      readonly type: 'snapshot';
      readonly id: number;
      readonly hash: string | undefined;
      readonly segments: readonly PostedSegment[];
      /** Dictionary entries the worker has not had yet, ascending keys. */
      readonly entries: readonly DictionaryEntry[];
    }
  | {
      readonly type: 'search';
      readonly id: number;
      readonly snapshot: number;
      readonly query: SearchQuery;
      /** Shared with the worker when over a `SharedArrayBuffer` (the readers' kept matches are), else copied. */
      readonly matches: Float64Array | undefined;
      readonly classes: Uint8Array | undefined;
    }
  | { readonly type: 'hits'; readonly id: number; readonly descriptions: ReadonlyMap<number, string> };

export interface ScoredSeq {
  readonly seq: number;
  readonly score: number;
}

/** Worker to main thread. */
export type FromWorker =
  | {
      readonly type: 'result';
      readonly id: number;
      readonly total: number;
      readonly facets: FacetCount[];
      readonly descriptionSeqs: readonly number[];
      /** The slice, when it needs no descriptions (else asked for with a `hits` message). */
      readonly hits: readonly ScoredSeq[] | undefined;
    }
  | { readonly type: 'hits'; readonly id: number; readonly hits: readonly ScoredSeq[] }
  | { readonly type: 'error'; readonly id: number; readonly message: string };

/** Entries of `dictionary` with keys above `known`, ascending. */
export function entriesAbove(dictionary: FacetDictionary, known: number): DictionaryEntry[] {
  const entries: DictionaryEntry[] = [];
  for (let key = known + 1; key <= dictionary.maxKey; key += 1) {
    const facet = dictionary.facetOf(key);
    if (facet === undefined) throw new RangeError(`facet value key ${key} has no facet`);
    entries.push({ key, facet, value: dictionary.valueOf(key), label: dictionary.labelOf(key) ?? null });
  }
  return entries;
}
