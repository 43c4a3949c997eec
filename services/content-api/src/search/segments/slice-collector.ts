import { compareCodePoints } from '../code-point-order.js';
import type { SortKey } from '../search-query.js';
import { BoundedHeap } from './bounded-heap.js';
import { firstByOrder, firstKey, mergeOrder, packedOrder, seqOrder, smallest, type ClassOf } from './segment-order.js';
import type { SegmentSnapshot } from './segment-snapshot.js';
import type { Segment } from './segment.js';

/** Receives the matching articles of a search, one by one, and gives the first `wanted` in order. */
export interface SliceCollector {
  add(segment: Segment, i: number, seq: number): void;
  /** Seqs whose descriptions `first` needs (description orders only; else none). */
  candidates(): readonly number[];
  /** Seqs of the first `wanted` articles in order; `descriptions` holds those of `candidates`. */
  first(descriptions: ReadonlyMap<number, string>): number[];
}

/**
 * The collector for an order: orders that pack into one number (score, manufacturer, id) by a
 * numeric selection over a typed array; other orders (price first) by a selection on their first
 * key and a sort of the few up to it; description orders (ranks comparable within a shop only)
 * by a heap per shop, merged by the texts. `room` bounds the articles that can be added.
 */
export function sliceCollector(
  keys: readonly SortKey[],
  snapshot: SegmentSnapshot,
  wanted: number,
  room: number,
  classOf?: ClassOf,
): SliceCollector {
  if (wanted === 0) return { add() {}, candidates: () => [], first: () => [] };
  const order = seqOrder(keys, snapshot, classOf);
  if (keys.some((k) => k.field === 'description')) {
    const heaps = new Map<Segment, BoundedHeap>();
    return {
      add(segment, _i, seq) {
        let heap = heaps.get(segment);
        if (!heap) heaps.set(segment, (heap = new BoundedHeap(wanted, order)));
        heap.offer(seq);
      },
      candidates: () => [...heaps.values()].flatMap((h) => h.sorted()),
      first(texts) {
        return [...heaps.values()]
          .flatMap((h) => h.sorted())
          .sort(mergeOrder(keys, snapshot, (seq) => texts.get(seq) ?? '', compareCodePoints, classOf))
          .slice(0, wanted);
      },
    };
  }
  const packed = packedOrder(keys, snapshot, classOf);
  if (packed) {
    const values = new Float64Array(room);
    let n = 0;
    return {
      add: (segment, i) => void (values[n++] = packed.key(segment, i)),
      candidates: () => [],
      first: () => Array.from(smallest(values, n, wanted), (key) => packed.seqOf(key)),
    };
  }
  const [leading] = keys;
  if (leading === undefined) throw new RangeError('an order needs at least one key');
  const key = firstKey(leading, snapshot, classOf);
  const seqs = new Float64Array(room);
  const firsts = new Float64Array(room);
  let n = 0;
  return {
    add(segment, i, seq) {
      seqs[n] = seq;
      firsts[n++] = key(segment, i);
    },
    candidates: () => [],
    first: () => firstByOrder(seqs, firsts, n, wanted, order),
  };
}
