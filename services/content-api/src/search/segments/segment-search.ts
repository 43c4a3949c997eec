import { topBuckets } from '../facet-buckets.js';
import type { FacetCount, SearchQuery } from '../search-query.js';
import type { DictionaryFacet } from './facet-dictionary.js';
import { SLOT_SPAN } from './segment-columns.js';
import { segmentFilter, type PositionFilter } from './segment-filter.js';
import { effectiveOrder } from './segment-order.js';
import { sliceCollector } from './slice-collector.js';
import type { SegmentSnapshot } from './segment-snapshot.js';
import type { Segment } from './segment.js';

export interface SegmentSearchOptions {
  readonly snapshot: SegmentSnapshot;
  readonly query: SearchQuery;
  /** Seqs whose text has every word, ascending; undefined when the query has no words (all match). */
  readonly matches: Float64Array | undefined;
}

export interface SegmentSearchResult {
  /** Exact number of matching articles. */
  readonly total: number;
  /** Exact counts; buckets as `topBuckets` keeps them. */
  readonly facets: FacetCount[];
  /**
   * Seqs whose descriptions `hits` needs to merge the shops' description orders (empty unless the
   * order has a description key): the caller reads them, in the same snapshot, and passes them on.
   */
  readonly descriptionSeqs: readonly number[];
  /** The requested slice in order, with scores. */
  hits(descriptions: ReadonlyMap<number, string>): readonly { readonly seq: number; readonly score: number }[];
}

const K1 = 1.2;
const B = 0.75;

/**
 * Relevance of a matching article: bm25 with every word counted once per article and weighing
 * the same (no term frequency, no idf), so it only falls with the article's length against the
 * average. Cheap enough for every match, which keeps the worst queries (very common words) fast.
 */
export function articleScore(queryWords: number, words: number, averageWords: number): number {
  return (queryWords * (K1 + 1)) / (1 + K1 * (1 - B + (B * Math.max(1, words)) / averageWords));
}

interface ShopState {
  readonly segment: Segment;
  readonly filter: PositionFilter;
  count: number;
}

/**
 * Runs a search over the segments of a snapshot in one pass over the candidates (the word
 * matches, or every article): exact total, all facets from counting arrays, and the slice
 * (`sliceCollector`). Without words and filters, counts come from the per-shop precomputed
 * counts and the default id order is paged directly.
 */
export function searchSegments(options: SegmentSearchOptions): SegmentSearchResult {
  const { snapshot, query, matches } = options;
  const dictionary = snapshot.dictionary;
  const hasWords = matches !== undefined;
  const keys = effectiveOrder(query.sort, hasWords);
  const wanted = query.limit === 0 ? 0 : query.offset + query.limit;
  const shops = new Set(query.shopIds);
  const states: ShopState[] = snapshot.segments.map((segment) => ({
    segment,
    filter:
      shops.size > 0 && !shops.has(segment.shopId)
        ? false
        : query.filter
          ? segmentFilter(query.filter, segment, dictionary)
          : true,
    count: 0,
  }));
  const counts: Record<DictionaryFacet, Uint32Array> = {
    manufacturerName: new Uint32Array(dictionary.maxKey + 1),
    'UNSPSC-7': new Uint32Array(dictionary.maxKey + 1),
    'UNSPSC-9': new Uint32Array(dictionary.maxKey + 1),
  };
  const addPrecomputed = (state: ShopState) => {
    state.count = state.segment.size;
    for (const [facet, values] of state.segment.facetCounts()) {
      const target = counts[facet];
      for (const [key, n] of values) target[key] = (target[key] ?? 0) + n;
    }
  };

  let slice: (descriptions: ReadonlyMap<number, string>) => number[];
  let descriptionSeqs: readonly number[] = [];
  const constantFilters = states.every((s) => typeof s.filter === 'boolean');
  if (!hasWords && keys[0]?.field === 'id' && constantFilters) {
    for (const state of states) if (state.filter) addPrecomputed(state);
    const page = pageInIdOrder(snapshot, states, query.offset, query.limit, keys[0].descending);
    slice = () => page;
  } else {
    const room = matches ? matches.length : states.reduce((n, s) => n + (s.filter === false ? 0 : s.segment.size), 0);
    const collector = sliceCollector(keys, snapshot, wanted, room);
    const { manufacturerName: mf, 'UNSPSC-7': u7, 'UNSPSC-9': u9 } = counts;
    if (matches) {
      let slot = -1;
      let state: ShopState | undefined;
      for (let m = 0; m < matches.length; m += 1) {
        const seq = matches[m] ?? 0;
        const s = Math.floor(seq / SLOT_SPAN);
        if (s !== slot) {
          slot = s;
          const segment = snapshot.segmentAt(s);
          state = segment ? states.find((x) => x.segment === segment) : undefined;
          if (state?.filter === false) state = undefined;
        }
        if (!state) continue;
        const i = seq - s * SLOT_SPAN;
        const filter = state.filter;
        if (filter !== true && !(filter as (i: number) => boolean)(i)) continue;
        const segment = state.segment;
        const columns = segment.columns;
        state.count += 1;
        const mfKey = columns.manufacturer[i] ?? 0;
        mf[mfKey] = (mf[mfKey] ?? 0) + 1;
        const u7Key = columns.unspsc7[i] ?? 0;
        u7[u7Key] = (u7[u7Key] ?? 0) + 1;
        const u9Key = columns.unspsc9[i] ?? 0;
        u9[u9Key] = (u9[u9Key] ?? 0) + 1;
        collector.add(segment, i, seq);
      }
    } else {
      for (const state of states) {
        const { filter, segment } = state;
        if (filter === false) continue;
        const columns = segment.columns;
        if (filter === true) addPrecomputed(state);
        for (let i = 0; i < segment.size; i += 1) {
          if (filter !== true) {
            if (!filter(i)) continue;
            state.count += 1;
            const mfKey = columns.manufacturer[i] ?? 0;
            mf[mfKey] = (mf[mfKey] ?? 0) + 1;
            const u7Key = columns.unspsc7[i] ?? 0;
            u7[u7Key] = (u7[u7Key] ?? 0) + 1;
            const u9Key = columns.unspsc9[i] ?? 0;
            u9[u9Key] = (u9[u9Key] ?? 0) + 1;
          } else if (wanted === 0) break;
          collector.add(segment, i, segment.base + i);
        }
      }
    }
    descriptionSeqs = collector.candidates();
    slice = (descriptions) => collector.first(descriptions).slice(query.offset, wanted);
  }

  const total = states.reduce((sum, s) => sum + s.count, 0);
  const facets = query.facets.map((facetName): FacetCount => {
    if (facetName === 'businessShopId')
      return { facetName, buckets: topBuckets(states.map((s) => [s.segment.shopId, s.count] as const)) };
    const column = counts[facetName];
    const entries: [string, number][] = [];
    // Key 0 holds the articles without a value: the '' bucket (the dictionary's value of key 0).
    for (let key = 0; key < column.length; key += 1) {
      const n = column[key] ?? 0;
      if (n > 0) entries.push([dictionary.valueOf(key), n]);
    }
    return { facetName, buckets: topBuckets(entries) };
  });
  const queryWords = new Set(query.words).size;
  return {
    total,
    facets,
    descriptionSeqs,
    hits: (descriptions) =>
      slice(descriptions).map((seq) => {
        if (!hasWords) return { seq, score: 0 };
        const segment = snapshot.segmentIn(Math.floor(seq / SLOT_SPAN));
        return {
          seq,
          score: articleScore(queryWords, segment.columns.words[seq - segment.base] ?? 0, snapshot.averageWords),
        };
      }),
  };
}

/** The slice `[offset, offset + limit)` of the selected shops' articles in id order, without scanning. */
function pageInIdOrder(
  snapshot: SegmentSnapshot,
  states: readonly ShopState[],
  offset: number,
  limit: number,
  descending: boolean,
): number[] {
  const selected = new Set(states.filter((s) => s.filter === true).map((s) => s.segment));
  const ordered = snapshot.inIdOrder.filter((s) => selected.has(s));
  if (descending) ordered.reverse();
  const hits: number[] = [];
  let skip = offset;
  for (const segment of ordered) {
    if (hits.length === limit) break;
    if (skip >= segment.size) {
      skip -= segment.size;
      continue;
    }
    const order = segment.columns.idOrder;
    for (let r = skip; r < segment.size && hits.length < limit; r += 1) {
      hits.push(segment.base + (order[descending ? segment.size - 1 - r : r] ?? 0));
    }
    skip = 0;
  }
  return hits;
}
