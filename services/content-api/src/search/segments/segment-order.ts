import type { SortKey } from '../search-query.js';
import { SLOT_SPAN } from './segment-columns.js';
import type { SegmentSnapshot } from './segment-snapshot.js';
import type { Segment } from './segment.js';

/**
 * The keys a search really orders by: `score` only with words (and `-score` by default then),
 * and always ending with `id`, a total order, so pages never overlap. Keys after `id` are dropped.
 */
export function effectiveOrder(sort: readonly SortKey[], hasWords: boolean): SortKey[] {
  const keys: SortKey[] = [];
  for (const key of sort) {
    if (key.field === 'score' && !hasWords) continue;
    keys.push(key);
    if (key.field === 'id') return keys;
  }
  if (keys.length === 0 && hasWords) keys.push({ field: 'score', descending: true });
  keys.push({ field: 'id', descending: false });
  return keys;
}

/** A number per position that orders ascending the way the field does. */
type Accessor = (segment: Segment, i: number) => number;

/**
 * The match class of a matching article by seq (decision 0040; 0 = exact, higher = worse): the
 * `score` key orders by it before the article's length. Absent: every match is exact.
 */
export type ClassOf = (seq: number) => number;

/** Scores of one match class lie below those of the class before it: the length weighs less. */
export const CLASS_SPAN = 65_536;

/**
 * Accessor of one field. `score` falls as an article gets longer (see `articleScore`), so its
 * ascending key is the negated length. `description` is only comparable within one segment
 * (dense ranks per shop); `id` is global (shop block offset + rank within the shop).
 */
function accessor(field: SortKey['field'], snapshot: SegmentSnapshot, classOf?: ClassOf): Accessor {
  switch (field) {
    case 'score':
      if (classOf) return (s, i) => -(classOf(s.base + i) * CLASS_SPAN + (s.columns.words[i] ?? 0));
      return (s, i) => -(s.columns.words[i] ?? 0);
    case 'price':
      return (s, i) => s.columns.price[i] ?? 0;
    case 'manufacturerName': {
      const rank = snapshot.dictionary.manufacturerRank();
      return (s, i) => rank[s.columns.manufacturer[i] ?? 0] ?? 0;
    }
    case 'description':
      return (s, i) => s.columns.descriptionRank[i] ?? 0;
    case 'id':
      return (s, i) => snapshot.idOffset(s) + (s.idRank[i] ?? 0);
  }
}

/** The first key of an order as a number per article, ascending in the order (signed for descending keys). */
export function firstKey(key: SortKey, snapshot: SegmentSnapshot, classOf?: ClassOf): Accessor {
  const get = accessor(key.field, snapshot, classOf);
  return key.descending ? (s, i) => -get(s, i) : get;
}

/**
 * A comparator of seqs under `keys`. Without a `description` key it is a total order across the
 * catalog; with one it is only valid between seqs of the same segment (see `mergeByDescription`).
 */
export function seqOrder(
  keys: readonly SortKey[],
  snapshot: SegmentSnapshot,
  classOf?: ClassOf,
): (a: number, b: number) => number {
  const parts = keys.map((k) => ({ get: accessor(k.field, snapshot, classOf), sign: k.descending ? -1 : 1 }));
  return (a, b) => {
    const slotA = Math.floor(a / SLOT_SPAN);
    const slotB = Math.floor(b / SLOT_SPAN);
    const sa = snapshot.segmentIn(slotA);
    const sb = snapshot.segmentIn(slotB);
    const ia = a - slotA * SLOT_SPAN;
    const ib = b - slotB * SLOT_SPAN;
    for (const { get, sign } of parts) {
      const d = get(sa, ia) - get(sb, ib);
      if (d !== 0) return d * sign;
    }
    return 0;
  };
}

/**
 * Orders seqs of several segments by `keys` where descriptions are compared as text (code point
 * order) and every other key as in `seqOrder`.
 */
export function mergeOrder(
  keys: readonly SortKey[],
  snapshot: SegmentSnapshot,
  description: (seq: number) => string,
  compareText: (a: string, b: string) => number,
  classOf?: ClassOf,
): (a: number, b: number) => number {
  const parts = keys.map((key) => {
    const sign = key.descending ? -1 : 1;
    if (key.field === 'description')
      return (a: number, b: number) => sign * compareText(description(a), description(b));
    return seqOrder([key], snapshot, classOf);
  });
  return (a, b) => {
    for (const part of parts) {
      const d = part(a, b);
      if (d !== 0) return d;
    }
    return 0;
  };
}

/** An order packed into one exact number per article (at most 53 bits), and back to the seq. */
export interface PackedOrder {
  /** Smaller key = earlier in the order; keys of different articles differ. */
  key(segment: Segment, i: number): number;
  seqOf(key: number): number;
  /** The key is `prefix * idSpan + id position` (the id part as ascending or descending), as `key` packs it. */
  readonly idSpan: number;
}

/** Whether `keys` is the default order with words: descending score, then ascending id. */
export function isScoreThenId(keys: readonly SortKey[]): boolean {
  const [first, second] = keys;
  return (
    keys.length === 2 && first?.field === 'score' && first.descending && second?.field === 'id' && !second.descending
  );
}

/**
 * Packs `keys` when every field is a small integer: score (the article's words, 16 bits),
 * manufacturer (its rank in the dictionary) and id (position in global id order, always last).
 * Selecting the first slice is then a numeric selection over a typed array instead of a heap
 * with a comparator, which matters for deep pages (`offset` 8000). Undefined when a field does
 * not pack (price, description) or the bits do not fit.
 */
export function packedOrder(
  keys: readonly SortKey[],
  snapshot: SegmentSnapshot,
  classOf?: ClassOf,
): PackedOrder | undefined {
  const idBits = Math.max(1, Math.ceil(Math.log2(snapshot.articleCount + 1)));
  const parts: { width: number; value: (segment: Segment, i: number) => number }[] = [];
  for (const key of keys.slice(0, -1)) {
    if (key.field === 'score' && classOf) {
      // Descending score is ascending match class, then ascending length.
      const max = 4 * CLASS_SPAN - 1;
      const value = (s: Segment, i: number) => classOf(s.base + i) * CLASS_SPAN + (s.columns.words[i] ?? 0);
      parts.push({ width: 18, value: key.descending ? value : (s, i) => max - value(s, i) });
    } else if (key.field === 'score') {
      // Descending score is ascending length.
      const max = 65_535;
      parts.push({
        width: 16,
        value: key.descending ? (s, i) => s.columns.words[i] ?? 0 : (s, i) => max - (s.columns.words[i] ?? 0),
      });
    } else if (key.field === 'manufacturerName') {
      const rank = snapshot.dictionary.manufacturerRank();
      const max = snapshot.dictionary.maxKey + 1;
      const width = Math.ceil(Math.log2(max + 1));
      parts.push({
        width,
        value: key.descending
          ? (s, i) => max - (rank[s.columns.manufacturer[i] ?? 0] ?? 0)
          : (s, i) => rank[s.columns.manufacturer[i] ?? 0] ?? 0,
      });
    } else return undefined;
  }
  const last = keys[keys.length - 1];
  if (last?.field !== 'id') return undefined;
  const width = parts.reduce((sum, p) => sum + p.width, idBits);
  if (width > 53) return undefined;
  const idSpan = 2 ** idBits;
  const maxId = snapshot.articleCount - 1;
  const descending = last.descending;
  const packers = parts.map((p) => ({ span: 2 ** p.width, value: p.value }));
  const offsets = snapshot.inIdOrder.map((s) => snapshot.idOffset(s));
  return {
    idSpan,
    key(segment, i) {
      let key = 0;
      for (const { span, value } of packers) key = key * span + value(segment, i);
      const id = snapshot.idOffset(segment) + (segment.idRank[i] ?? 0);
      return key * idSpan + (descending ? maxId - id : id);
    },
    seqOf(key) {
      const packed = key % idSpan;
      const id = descending ? maxId - packed : packed;
      // The shop block holding this id position (blocks ascend), then the article at that rank.
      let low = 0;
      let high = offsets.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if ((offsets[mid] ?? 0) <= id) low = mid;
        else high = mid - 1;
      }
      const segment = snapshot.inIdOrder[low];
      if (segment === undefined) throw new RangeError(`no segment holds id position ${id}`);
      return segment.base + (segment.columns.idOrder[id - (offsets[low] ?? 0)] ?? 0);
    },
  };
}

/**
 * The first `count` of `seqs[0, length)` under `order`, whose first key is `first` (a number per
 * seq, ascending in the order): a numeric selection finds the first key of the last seq kept,
 * only seqs up to it are sorted with the comparator. `firsts` is overwritten.
 */
export function firstByOrder(
  seqs: Float64Array,
  firsts: Float64Array,
  length: number,
  count: number,
  order: (a: number, b: number) => number,
): number[] {
  if (count === 0 || length === 0) return [];
  if (length <= count) return Array.from(seqs.subarray(0, length)).sort(order);
  const values = firsts.slice(0, length);
  select(values, length, count);
  let bound = -Infinity;
  for (let i = 0; i < count; i += 1) if ((values[i] ?? 0) > bound) bound = values[i] ?? 0;
  const kept: number[] = [];
  for (let i = 0; i < length; i += 1) if ((firsts[i] ?? 0) <= bound) kept.push(seqs[i] ?? 0);
  return kept.sort(order).slice(0, count);
}

/** The `count` smallest numbers of `values[0, length)`, ascending (selection, then a sort of those). */
export function smallest(values: Float64Array, length: number, count: number): Float64Array {
  const n = Math.min(count, length);
  if (n === 0) return new Float64Array(0);
  if (length > n) select(values, length, n);
  return values.slice(0, n).sort();
}

/** Rearranges `a[0, length)` so its `k` smallest values come first (Hoare quickselect, median of three). */
export function select(a: Float64Array, length: number, k: number): void {
  let left = 0;
  let right = length - 1;
  while (right > left) {
    const mid = (left + right) >> 1;
    const x = a[left] ?? 0;
    const y = a[mid] ?? 0;
    const z = a[right] ?? 0;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = left;
    let j = right;
    while (i <= j) {
      while ((a[i] ?? pivot) < pivot) i += 1;
      while ((a[j] ?? pivot) > pivot) j -= 1;
      if (i <= j) {
        const t = a[i] ?? 0;
        a[i] = a[j] ?? 0;
        a[j] = t;
        i += 1;
        j -= 1;
      }
    }
    if (k - 1 <= j) right = j;
    else if (k - 1 >= i) left = i;
    else return;
  }
}
