import { topBuckets, type Bucket } from '../facet-buckets.js';
import type { ClassificationFacet, FacetCount, SearchQuery } from '../search-query.js';
import type { DictionaryFacet, FacetDictionary } from './facet-dictionary.js';
import { CLASSIFICATION_COLUMNS, SLOT_SPAN } from './segment-columns.js';
import { BoundedHeap } from './bounded-heap.js';
import { filterPositionsCache } from './filter-positions-cache.js';
import { segmentFilter, segmentFilterPositions, type PositionFilter } from './segment-filter.js';
import { CLASS_SPAN, effectiveOrder, isScoreThenId, packedOrder } from './segment-order.js';
import { SmallestNumbers } from './bounded-heap.js';
import { sliceCollector } from './slice-collector.js';
import { WORST_CLASS } from './word-matching.js';
import type { SegmentSnapshot } from './segment-snapshot.js';
import type { Segment } from './segment.js';

export interface SegmentSearchOptions {
  readonly snapshot: SegmentSnapshot;
  readonly query: SearchQuery;
  /** Seqs whose text has every word, ascending; undefined when the query has no words (all match). */
  readonly matches: Float64Array | undefined;
  /**
   * The match class of each of `matches` (decision 0040: 0 exact, higher worse), which ranks
   * before the article's length; absent when every match is exact.
   */
  readonly classes?: Uint8Array | undefined;
  /** False: the general path only, never a specialised loop (tests compare both). Default true. */
  readonly fastPaths?: boolean;
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

/** The segment column of each dictionary facet. */
const FACET_COLUMNS: Readonly<
  Record<DictionaryFacet, 'manufacturer' | (typeof CLASSIFICATION_COLUMNS)[ClassificationFacet]>
> = {
  manufacturerName: 'manufacturer',
  ...CLASSIFICATION_COLUMNS,
};

/** Stands in for the counters and columns of facets not counted (never read: guarded by their number). */
const NONE: Uint32Array = new Uint32Array(0);
const NONE_WORDS: Uint16Array = new Uint16Array(0);

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

/** Above every `articleScore` of `queryWords` words (the score of an article of no length). */
function scoreCeiling(queryWords: number): number {
  return (queryWords * (K1 + 1)) / (1 + K1 * (1 - B));
}

/** How `countRun` orders: the default order with words, packed as `packedOrder` packs it. */
interface ScoreThenIdRun {
  readonly words: Uint16Array;
  readonly idRank: Uint32Array;
  /** Of the segment. */
  readonly idOffset: number;
  readonly idSpan: number;
  readonly top: SmallestNumbers;
}

/**
 * Counts article `i` in the facet tallies: `n` facets, the first four written out (`t0`..`t3`
 * counting the keys of columns `c0`..`c3`, typed arrays the caller keeps in locals; `NONE` for a
 * facet not counted, never read: guarded by `n`), the others through `tallies` and `columns`. The
 * common requests (the old four facets: three in columns) count as fast as hard-coded counters.
 * Small, so both counting loops (word matches, filter positions) get it inlined.
 */
function tally(
  i: number,
  n: number,
  t0: Uint32Array,
  t1: Uint32Array,
  t2: Uint32Array,
  t3: Uint32Array,
  c0: Uint32Array,
  c1: Uint32Array,
  c2: Uint32Array,
  c3: Uint32Array,
  tallies: readonly Uint32Array[],
  columns: readonly Uint32Array[],
): void {
  if (n === 0) return;
  const k0 = c0[i] as number;
  t0[k0] = (t0[k0] as number) + 1;
  if (n === 1) return;
  const k1 = c1[i] as number;
  t1[k1] = (t1[k1] as number) + 1;
  if (n === 2) return;
  const k2 = c2[i] as number;
  t2[k2] = (t2[k2] as number) + 1;
  if (n === 3) return;
  const k3 = c3[i] as number;
  t3[k3] = (t3[k3] as number) + 1;
  for (let f = 4; f < n; f += 1) {
    const counts = tallies[f] as Uint32Array;
    const key = (columns[f] as Uint32Array)[i] as number;
    counts[key] = (counts[key] as number) + 1;
  }
}

/** The index after the run of `matches` from `from` in the slot whose first seq is `base`. */
function runEnd(matches: Float64Array, from: number, base: number): number {
  let m = from;
  while (m < matches.length && (matches[m] as number) - base < SLOT_SPAN && (matches[m] as number) >= base) m += 1;
  return m;
}

/**
 * Counts the run of matches from `from` in the segment of `state` (its seqs) that pass its
 * filter into `state.count` and `tallies` (a facet each, by its column of the segment in
 * `columns`), and hands each to `order` (the packed key computed here) or else `add`. Returns the
 * index after the run. Matches ascend, but a run ends at any seq of another slot. A function of
 * its own, small and called per segment, so it is optimised early and keeps its arrays in locals.
 */
function countRun(
  matches: Float64Array,
  classes: Uint8Array | undefined,
  from: number,
  state: ShopState,
  tallies: readonly Uint32Array[],
  columns: readonly Uint32Array[],
  order: ScoreThenIdRun | undefined,
  add: ((m: number, i: number, seq: number) => void) | undefined,
): number {
  // The first four facets' counters and columns in locals (see `tally`).
  const n = tallies.length;
  const [t0 = NONE, t1 = NONE, t2 = NONE, t3 = NONE] = tallies;
  const [c0 = NONE, c1 = NONE, c2 = NONE, c3 = NONE] = columns;
  const words = order ? order.words : NONE_WORDS;
  const idRank = order ? order.idRank : NONE;
  const idOffset = order ? order.idOffset : 0;
  const idSpan = order ? order.idSpan : 0;
  const top = order?.top;
  const base = state.segment.base;
  const filter = state.filter;
  const length = matches.length;
  let count = 0;
  let m = from;
  for (; m < length; m += 1) {
    const seq = matches[m] as number;
    const i = seq - base;
    if (i >= SLOT_SPAN || i < 0) break;
    if (filter !== true && !(filter as (i: number) => boolean)(i)) continue;
    count += 1;
    tally(i, n, t0, t1, t2, t3, c0, c1, c2, c3, tallies, columns);
    if (top) {
      // Descending score is ascending class, then ascending length; then the id position.
      const cls = classes ? (classes[m] as number) : 0;
      const key = (cls * CLASS_SPAN + (words[i] as number)) * idSpan + idOffset + (idRank[i] as number);
      if (key < top.bound) top.offer(key);
    } else if (add) add(m, i, seq);
  }
  state.count += count;
  return m;
}

/**
 * Counts the articles at `positions` (a segment's, passing its filter) into `tallies` (a facet
 * each, by its column in `columns`) and hands each to `add`, if given. A function of its own, as
 * `countRun` is.
 */
function countPositions(
  positions: Uint32Array,
  tallies: readonly Uint32Array[],
  columns: readonly Uint32Array[],
  add: ((i: number) => void) | undefined,
): void {
  // The first four facets' counters and columns in locals (see `tally`).
  const n = tallies.length;
  const [t0 = NONE, t1 = NONE, t2 = NONE, t3 = NONE] = tallies;
  const [c0 = NONE, c1 = NONE, c2 = NONE, c3 = NONE] = columns;
  const length = positions.length;
  for (let p = 0; p < length; p += 1) {
    const i = positions[p] as number;
    tally(i, n, t0, t1, t2, t3, c0, c1, c2, c3, tallies, columns);
    if (add) add(i);
  }
}

/** The class of `seq` among `matches` (ascending) by binary search. */
function classAt(matches: Float64Array, classes: Uint8Array, seq: number): number {
  let low = 0;
  let high = matches.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((matches[middle] as number) < seq) low = middle + 1;
    else high = middle;
  }
  return classes[low] ?? 0;
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
  const { snapshot, query, matches, classes, fastPaths = true } = options;
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
  // Facets counted article by article: the requested ones of which the catalog knows a value. A
  // facet without any (no catalog gave an ECLASS group) has every match in its '' bucket, so a
  // catalog without classifications pays nothing for their facets.
  const counted = query.facets.filter((f): f is DictionaryFacet => f !== 'businessShopId' && dictionary.hasValues(f));
  const tallies = counted.map(() => new Uint32Array(dictionary.maxKey + 1));
  const columnsOf = (segment: Segment) => counted.map((f) => segment.columns[FACET_COLUMNS[f]]);
  const addPrecomputed = (state: ShopState) => {
    state.count = state.segment.size;
    const precomputed = state.segment.facetCounts();
    counted.forEach((facet, f) => {
      const target = tallies[f] ?? new Uint32Array(0);
      for (const [key, n] of precomputed.get(facet) ?? []) target[key] = (target[key] ?? 0) + n;
    });
  };

  let slice: (descriptions: ReadonlyMap<number, string>) => number[];
  /** The passing positions of each segment scanned with a filter (ascending). */
  const passing = new Map<Segment, Uint32Array>();
  let descriptionSeqs: readonly number[] = [];
  const constantFilters = states.every((s) => typeof s.filter === 'boolean');
  if (!hasWords && keys[0]?.field === 'id' && constantFilters) {
    for (const state of states) if (state.filter) addPrecomputed(state);
    const page = pageInIdOrder(snapshot, states, query.offset, query.limit, keys[0].descending);
    slice = () => page;
  } else {
    const room = matches ? matches.length : states.reduce((n, s) => n + (s.filter === false ? 0 : s.segment.size), 0);
    // The match being added is `matches[current]`: its class needs no search.
    let current = 0;
    const classOf =
      matches && classes
        ? (seq: number) => (matches[current] === seq ? (classes[current] ?? 0) : classAt(matches, classes, seq))
        : undefined;
    // Without words in id order `pageInIdOrder` gives the page: no collector (its arrays are sized by `room`).
    const idPage = !hasWords && keys[0]?.field === 'id';
    // The default order with words (`-score`, then id) packs as `packedOrder` does, computed in
    // the loop below from the columns (no closure per match); only keys below the largest of the
    // slice kept so far are offered.
    const packed = matches && fastPaths && wanted > 0 && isScoreThenId(keys) ? packedOrder(keys, snapshot) : undefined;
    const collector = sliceCollector(keys, snapshot, packed || idPage ? 0 : wanted, room, classOf);
    /** The first `wanted` when a fast path collected them instead of `collector`. */
    let fastSlice: ((descriptions: ReadonlyMap<number, string>) => number[]) | undefined;
    if (matches) {
      const top = packed ? new SmallestNumbers(wanted) : undefined;
      const idSpan = packed?.idSpan ?? 0;
      const stateAt: (ShopState | undefined)[] = [];
      for (const state of states) if (state.filter !== false) stateAt[state.segment.header.slot] = state;
      // The matches of one segment at a time: a run of seqs in one slot.
      let m = 0;
      while (m < matches.length) {
        const slot = Math.floor((matches[m] as number) / SLOT_SPAN);
        const state = stateAt[slot];
        if (!state) {
          m = runEnd(matches, m, slot * SLOT_SPAN);
          continue;
        }
        const { segment } = state;
        const order = top && {
          words: segment.columns.words,
          idRank: segment.idRank,
          idOffset: snapshot.idOffset(segment),
          idSpan,
          top,
        };
        const add = top
          ? undefined
          : (at: number, i: number, seq: number) => {
              current = at;
              collector.add(segment, i, seq);
            };
        m = countRun(matches, classes, m, state, tallies, columnsOf(segment), order, add);
      }
      if (packed && top) fastSlice = () => Array.from(top.sorted(), (key) => packed.seqOf(key));
    } else {
      // In id order the page is read from the passing positions afterwards (`pageInIdOrder`): nothing is collected.
      const collect = wanted > 0 && keys[0]?.field !== 'id';
      // Kept per filter text for this snapshot: a filter asked again is not scanned again.
      const expression = query.filter;
      const cache = filterPositionsCache(snapshot);
      const filterKey = expression ? JSON.stringify(expression) : '';
      for (const state of states) {
        const { segment } = state;
        // A scan of every article visits only those that pass, listed a column at a time.
        const filter =
          typeof state.filter === 'boolean' || !expression
            ? state.filter
            : cache.positions(filterKey, segment, () => segmentFilterPositions(expression, segment, dictionary));
        if (filter === false) continue;
        const size = segment.size;
        if (filter === true) {
          addPrecomputed(state);
          if (collect) for (let i = 0; i < size; i += 1) collector.add(segment, i, segment.base + i);
          continue;
        }
        if (typeof filter === 'function') throw new TypeError('a scan needs the passing positions');
        const add = collect ? (i: number) => collector.add(segment, i, segment.base + i) : undefined;
        countPositions(filter, tallies, columnsOf(segment), add);
        state.count = filter.length;
        if (!collect && wanted > 0) passing.set(segment, filter);
      }
    }
    descriptionSeqs = collector.candidates();
    if (!hasWords && keys[0]?.field === 'id') {
      const first = keys[0];
      slice = () => pageInIdOrder(snapshot, states, query.offset, query.limit, first.descending, passing);
    } else {
      const first = fastSlice ?? ((descriptions: ReadonlyMap<number, string>) => collector.first(descriptions));
      slice = (descriptions) => first(descriptions).slice(query.offset, wanted);
    }
  }

  const total = states.reduce((sum, s) => sum + s.count, 0);
  const facets = query.facets.map((facetName): FacetCount => {
    if (facetName === 'businessShopId')
      return { facetName, buckets: topBuckets(states.map((s) => [s.segment.shopId, s.count] as const)) };
    const tally = tallies[counted.indexOf(facetName)];
    if (!tally) return { facetName, buckets: topBuckets([['', total]]) };
    const entries: [string, number][] = [];
    // Key 0 holds the articles without a value: the '' bucket (the dictionary's value of key 0).
    for (let key = 0; key < tally.length; key += 1) {
      const count = tally[key] ?? 0;
      if (count > 0) entries.push([dictionary.valueOf(key), count]);
    }
    return { facetName, buckets: labelled(topBuckets(entries), facetName, dictionary) };
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
        const score = articleScore(queryWords, segment.columns.words[seq - segment.base] ?? 0, snapshot.averageWords);
        if (!classes || !matches) return { seq, score };
        // Each better class lies above the one after it: its scores are raised by the most a score can be.
        return { seq, score: score + (WORST_CLASS - classAt(matches, classes, seq)) * scoreCeiling(queryWords) };
      }),
  };
}

/** The buckets with the label their value has in the dictionary (a classification group's name), if any. */
function labelled(buckets: Bucket[], facet: DictionaryFacet, dictionary: FacetDictionary): Bucket[] {
  return buckets.map((bucket) => {
    if (bucket.value === '' || bucket.otherValues !== undefined) return bucket;
    const label = dictionary.labelOf(dictionary.keyOf(facet, bucket.value));
    return label === undefined ? bucket : { ...bucket, label };
  });
}

/**
 * The slice `[offset, offset + limit)` of the selected shops' articles in id order: whole shops
 * (filter `true`) without scanning, shops with passing positions (`passing`, their `count` known)
 * from those positions' places in the shop's id order, skipping whole shops before the offset.
 */
function pageInIdOrder(
  snapshot: SegmentSnapshot,
  states: readonly ShopState[],
  offset: number,
  limit: number,
  descending: boolean,
  passing: ReadonlyMap<Segment, Uint32Array> = new Map(),
): number[] {
  const counts = new Map<Segment, number>();
  for (const s of states) {
    if (s.filter === true) counts.set(s.segment, s.segment.size);
    else if (passing.has(s.segment)) counts.set(s.segment, s.count);
  }
  const ordered = snapshot.inIdOrder.filter((s) => counts.has(s));
  if (descending) ordered.reverse();
  const hits: number[] = [];
  let skip = offset;
  for (const segment of ordered) {
    if (hits.length === limit) break;
    const count = counts.get(segment) ?? 0;
    if (skip >= count) {
      skip -= count;
      continue;
    }
    const positions = passing.get(segment);
    if (!positions) {
      const order = segment.columns.idOrder;
      for (let r = skip; r < segment.size && hits.length < limit; r += 1) {
        hits.push(segment.base + (order[descending ? segment.size - 1 - r : r] ?? 0));
      }
    } else {
      for (const i of placesInIdOrder(segment, positions, skip, limit - hits.length, descending)) {
        hits.push(segment.base + i);
      }
    }
    skip = 0;
  }
  return hits;
}

/**
 * The positions among `positions` (ascending) at places `[skip, skip + take)` of the segment's id
 * order (reversed when `descending`). A first page of a filter that many articles pass walks the
 * id order, testing each position by binary search, for at most a budget of steps about as costly
 * as going once through `positions`; otherwise (deep pages, rare or clustered articles) the
 * `skip + take` first places of `positions` are kept in a bounded heap.
 */
function placesInIdOrder(
  segment: Segment,
  positions: Uint32Array,
  skip: number,
  take: number,
  descending: boolean,
): number[] {
  const size = segment.size;
  const count = positions.length;
  const order = segment.columns.idOrder;
  const at = (place: number) => order[descending ? size - 1 - place : place] as number;
  const wanted = Math.min(skip + take, count);
  const budget = count / Math.log2(count + 2);
  // Steps the walk takes when the passing articles are spread evenly over the id order.
  if ((wanted * size) / Math.max(1, count) <= budget) {
    const found: number[] = [];
    let left = skip;
    let place = 0;
    for (; place < size && place <= budget && found.length < take; place += 1) {
      const i = at(place);
      if (!includes(positions, i)) continue;
      if (left > 0) left -= 1;
      else found.push(i);
    }
    if (found.length === take || place === size) return found;
    // Over budget: the passing articles cluster away from the start of the order.
  }
  const rank = segment.idRank;
  const heap = new BoundedHeap(wanted, (a, b) => a - b);
  for (let p = 0; p < count; p += 1) {
    const r = rank[positions[p] as number] as number;
    heap.offer(descending ? size - 1 - r : r);
  }
  return heap
    .sorted()
    .slice(skip, skip + take)
    .map(at);
}

/** Whether the ascending `positions` hold `i` (binary search). */
function includes(positions: Uint32Array, i: number): boolean {
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const value = positions[middle] as number;
    if (value === i) return true;
    if (value < i) low = middle + 1;
    else high = middle;
  }
  return false;
}
