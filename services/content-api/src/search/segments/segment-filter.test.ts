import { describe, expect, it } from 'vitest';
import type { FilterExpression } from '../search-query.js';
import { BoundedHeap } from './bounded-heap.js';
import { FacetDictionary } from './facet-dictionary.js';
import { segmentFilter, segmentFilterPositions } from './segment-filter.js';
import { Segment } from './segment.js';

const dictionary = new FacetDictionary();
dictionary.add({ key: 1, facet: 'manufacturerName', value: 'Bosch' });
dictionary.add({ key: 2, facet: 'manufacturerName', value: 'Avery' });
dictionary.add({ key: 3, facet: 'UNSPSC-7', value: '44121704' });
dictionary.add({ key: 4, facet: 'ECLASS', value: '27141104', label: 'Reihenklemme' });
dictionary.add({ key: 5, facet: 'ETIM', value: 'EC000897' });
dictionary.add({ key: 6, facet: 'UNSPSC', value: '44121704' });

// Three articles: Bosch 1.00, Avery 2.50, none 10.00.
const segment = new Segment(
  { slot: 1, shopId: 'labtools', generation: 'g', size: 3, wordTotal: 30 },
  {
    manufacturer: Uint32Array.of(1, 2, 0),
    unspsc7: Uint32Array.of(3, 0, 3),
    unspsc9: Uint32Array.of(0, 0, 0),
    unspsc: Uint32Array.of(6, 0, 6),
    eclass: Uint32Array.of(0, 4, 4),
    etim: Uint32Array.of(5, 0, 0),
    price: Float64Array.of(1_000_000, 2_500_000, 10_000_000),
    priceInclSpecialTaxes: Float64Array.of(1_000_000, 2_500_000, 10_000_000),
    words: Uint16Array.of(10, 10, 10),
    idOrder: Uint32Array.of(2, 0, 1),
    descriptionRank: Uint32Array.of(1, 2, 3),
  },
);

/** The passing positions by `segmentFilter`, after checking that `segmentFilterPositions` agrees. */
const passing = (expression: FilterExpression): boolean | number[] => {
  const filter = segmentFilter(expression, segment, dictionary);
  const byCalls = typeof filter === 'boolean' ? filter : [0, 1, 2].filter((i) => filter(i));
  const positions = segmentFilterPositions(expression, segment, dictionary);
  expect(typeof positions === 'boolean' ? positions : [...positions]).toEqual(byCalls);
  return byCalls;
};
const maker = (value: string): FilterExpression => ({
  type: 'ExactStringMatchFilter',
  filterName: 'manufacturerName',
  value,
});
const shop = (value: string): FilterExpression => ({
  type: 'ExactStringMatchFilter',
  filterName: 'businessShopId',
  value,
});

describe('segmentFilter', () => {
  it('folds shop conditions and unknown values to constants for the whole segment', () => {
    expect(passing(shop('labtools'))).toBe(true);
    expect(passing(shop('other'))).toBe(false);
    expect(passing(maker('Makita'))).toBe(false);
    expect(passing({ type: 'And', operands: [shop('other'), maker('Bosch')] })).toBe(false);
    expect(passing({ type: 'Or', operands: [shop('labtools'), maker('Bosch')] })).toBe(true);
    expect(passing({ type: 'And', operands: [] })).toBe(true);
    expect(passing({ type: 'Or', operands: [] })).toBe(false);
  });

  it('matches values and inclusive price bounds per article', () => {
    expect(passing(maker('Avery'))).toEqual([1]);
    expect(passing({ type: 'ExactReferenceFeatureMatchFilter', filterName: 'UNSPSC-7', group: '44121704' })).toEqual([
      0, 2,
    ]);
    const range: FilterExpression = {
      type: 'DecimalRangeFilter',
      filterName: 'pricePerMinimumOrderQuantity',
      lowerBound: { value: 250, decimalDigits: 2 },
      upperBound: { value: 10, decimalDigits: 0 },
    };
    expect(passing(range)).toEqual([1, 2]);
    expect(
      passing({
        type: 'Or',
        operands: [maker('Bosch'), { type: 'And', operands: [range, shop('labtools'), maker('Avery')] }],
      }),
    ).toEqual([0, 1]);
  });

  it('matches ECLASS, ETIM and UNSPSC of any version by group, each in its own column', () => {
    const group = (filterName: 'ECLASS' | 'ETIM' | 'UNSPSC', value: string): FilterExpression => ({
      type: 'ExactReferenceFeatureMatchFilter',
      filterName,
      group: value,
    });
    expect(passing(group('ECLASS', '27141104'))).toEqual([1, 2]);
    expect(passing(group('ECLASS', ''))).toEqual([0]);
    expect(passing(group('ETIM', 'EC000897'))).toEqual([0]);
    expect(passing(group('UNSPSC', '44121704'))).toEqual([0, 2]);
    // A group of another facet is unknown to this one.
    expect(passing(group('ECLASS', '44121704'))).toBe(false);
  });

  it('combines two and three operands of And and Or alike by calls and by position lists', () => {
    const cheap: FilterExpression = {
      type: 'DecimalRangeFilter',
      filterName: 'pricePerMinimumOrderQuantity',
      upperBound: { value: 3, decimalDigits: 0 },
    };
    const eclass: FilterExpression = { type: 'ExactReferenceFeatureMatchFilter', filterName: 'ECLASS', group: '' };
    expect(passing({ type: 'And', operands: [cheap, maker('Avery')] })).toEqual([1]);
    expect(passing({ type: 'Or', operands: [maker('Bosch'), maker('Avery')] })).toEqual([0, 1]);
    expect(passing({ type: 'Or', operands: [maker('Bosch'), maker('Avery'), maker('')] })).toEqual([0, 1, 2]);
    expect(passing({ type: 'And', operands: [cheap, eclass, shop('labtools')] })).toEqual([0]);
    expect(passing({ type: 'And', operands: [cheap, maker('Avery'), eclass] })).toEqual([]);
    expect(passing({ type: 'Or', operands: [maker('Makita'), shop('other'), eclass] })).toEqual([0]);
    // Lists that overlap are merged without repeats; values of the manufacturer column in one loop.
    expect(passing({ type: 'Or', operands: [maker('Bosch'), eclass] })).toEqual([0]);
    const unspsc: FilterExpression = {
      type: 'ExactReferenceFeatureMatchFilter',
      filterName: 'UNSPSC',
      group: '44121704',
    };
    expect(passing({ type: 'Or', operands: [unspsc, maker('Avery'), maker('Bosch')] })).toEqual([0, 1, 2]);
    expect(passing({ type: 'And', operands: [{ type: 'Or', operands: [maker('Avery'), maker('')] }, cheap] })).toEqual([
      1,
    ]);
  });

  it('gives each position its rank in id order', () => {
    expect([...segment.idRank]).toEqual([1, 2, 0]);
  });
});

describe('BoundedHeap', () => {
  it('keeps the smallest items under the order and returns them sorted', () => {
    const heap = new BoundedHeap(3, (a, b) => a - b);
    for (const n of [9, 4, 7, 1, 8, 2, 6]) heap.offer(n);
    expect(heap.sorted()).toEqual([1, 2, 4]);
    const none = new BoundedHeap(0, (a, b) => a - b);
    none.offer(1);
    expect(none.sorted()).toEqual([]);
  });
});
