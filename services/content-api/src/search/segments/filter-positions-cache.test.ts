import { describe, expect, it } from 'vitest';
import { FacetDictionary } from './facet-dictionary.js';
import { FilterPositionsCache, filterPositionsCache, type FilterPositions } from './filter-positions-cache.js';
import { SegmentSnapshot } from './segment-snapshot.js';
import { Segment } from './segment.js';

const segmentOf = (slot: number, size = 4) =>
  new Segment(
    { slot, shopId: `shop${slot}`, generation: 'g', size, wordTotal: size },
    {
      manufacturer: new Uint32Array(size),
      unspsc7: new Uint32Array(size),
      unspsc9: new Uint32Array(size),
      unspsc: new Uint32Array(size),
      eclass: new Uint32Array(size),
      etim: new Uint32Array(size),
      price: new Float64Array(size),
      priceInclSpecialTaxes: new Float64Array(size),
      words: new Uint16Array(size).fill(1),
      idOrder: Uint32Array.from({ length: size }, (_, i) => i),
      descriptionRank: new Uint32Array(size),
    },
  );

describe('FilterPositionsCache', () => {
  it('computes a filter once per segment and again for a changed filter or another segment', () => {
    const cache = new FilterPositionsCache(100);
    const [a, b] = [segmentOf(1), segmentOf(2)];
    const computed: string[] = [];
    const get = (key: string, segment: Segment, result: FilterPositions) =>
      cache.positions(key, segment, () => (computed.push(`${key}@${segment.shopId}`), result));
    expect([...(get('bosch', a, Uint32Array.of(0, 2)) as Uint32Array)]).toEqual([0, 2]);
    expect([...(get('bosch', a, Uint32Array.of(9)) as Uint32Array)]).toEqual([0, 2]);
    expect(get('bosch', b, false)).toBe(false);
    expect(get('bosch', b, true)).toBe(false);
    get('tesa', a, Uint32Array.of(1));
    expect(computed).toEqual(['bosch@shop1', 'bosch@shop2', 'tesa@shop1']);
    expect(cache.held).toBe(3);
  });

  it('drops the least recently used filters past its size and keeps no filter larger than it', () => {
    const cache = new FilterPositionsCache(5);
    const segment = segmentOf(1, 10);
    const computed: string[] = [];
    const get = (key: string, ...positions: number[]) =>
      cache.positions(key, segment, () => (computed.push(key), Uint32Array.from(positions)));
    get('a', 1, 2);
    get('b', 3, 4);
    get('a'); // a is now the most recent
    get('c', 5, 6); // 6 held: b goes
    expect(cache.held).toBe(4);
    get('a');
    get('b', 3, 4);
    expect(computed).toEqual(['a', 'b', 'c', 'b']);
    expect([...(get('big', 1, 2, 3, 4, 5, 6) as Uint32Array)]).toEqual([1, 2, 3, 4, 5, 6]);
    get('big', 1, 2, 3, 4, 5, 6);
    expect(computed.filter((key) => key === 'big')).toHaveLength(2);
    expect(cache.held).toBeLessThanOrEqual(5);
  });

  it('keeps one cache per snapshot: a new snapshot over another dictionary starts empty', () => {
    const segment = segmentOf(1);
    const first = new SegmentSnapshot('v1', [segment], new FacetDictionary());
    const next = new SegmentSnapshot('v2', [segment], new FacetDictionary());
    let computed = 0;
    const compute = () => ((computed += 1), Uint32Array.of(1));
    filterPositionsCache(first).positions('bosch', segment, compute);
    filterPositionsCache(first).positions('bosch', segment, compute);
    expect(computed).toBe(1);
    expect(filterPositionsCache(first).held).toBe(1);
    expect(filterPositionsCache(next).held).toBe(0);
    filterPositionsCache(next).positions('bosch', segment, compute);
    expect(computed).toBe(2);
  });

  it('starts a new snapshot over the same dictionary with the positions of the segments it kept', () => {
    const dictionary = new FacetDictionary();
    const [kept, replaced] = [segmentOf(1), segmentOf(2)];
    const replacement = segmentOf(2);
    const first = new SegmentSnapshot('v1', [kept, replaced], dictionary);
    const computed: string[] = [];
    const compute = (name: string) => () => (computed.push(name), Uint32Array.of(1, 3));
    filterPositionsCache(first).positions('bosch', kept, compute('kept'));
    filterPositionsCache(first).positions('bosch', replaced, compute('replaced'));
    const next = new SegmentSnapshot('v2', [kept, replacement], dictionary);
    expect(filterPositionsCache(next).held).toBe(2);
    expect([...(filterPositionsCache(next).positions('bosch', kept, compute('kept')) as Uint32Array)]).toEqual([1, 3]);
    filterPositionsCache(next).positions('bosch', replacement, compute('replacement'));
    expect(computed).toEqual(['kept', 'replaced', 'replacement']);
    // The snapshot before keeps its own.
    expect(filterPositionsCache(first).held).toBe(4);
  });
});
