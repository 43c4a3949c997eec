import { randomInt, seededRandom } from '@triad/common';
import { describe, expect, it } from 'vitest';
import type { FilterExpression, SearchQuery } from '../search-query.js';
import { FacetDictionary } from './facet-dictionary.js';
import { segmentFilter } from './segment-filter.js';
import { searchSegments } from './segment-search.js';
import { SegmentSnapshot } from './segment-snapshot.js';
import { Segment } from './segment.js';

const dictionary = new FacetDictionary();
dictionary.add({ key: 1, facet: 'manufacturerName', value: 'Bosch' });
dictionary.add({ key: 2, facet: 'manufacturerName', value: 'Tesa' });
dictionary.add({ key: 3, facet: 'manufacturerName', value: 'Avery' });

/**
 * A shop of `size` articles: manufacturers drawn at random, ids in a shuffled order, and each
 * article's price (whole units) its place in the shop's id order, so a price bound selects a block
 * of that order.
 */
function shop(slot: number, shopId: string, size: number, seed: number): Segment {
  const random = seededRandom(seed);
  const idOrder = Uint32Array.from({ length: size }, (_, i) => i);
  for (let i = size - 1; i > 0; i -= 1) {
    const j = randomInt(random, i + 1);
    [idOrder[i], idOrder[j]] = [idOrder[j]!, idOrder[i]!];
  }
  const price = new Float64Array(size);
  idOrder.forEach((position, place) => (price[position] = place * 1_000_000));
  return new Segment(
    { slot, shopId, generation: 'g', size, wordTotal: size },
    {
      manufacturer: Uint32Array.from({ length: size }, () => randomInt(random, 4)),
      unspsc7: new Uint32Array(size),
      unspsc9: new Uint32Array(size),
      unspsc: new Uint32Array(size),
      eclass: new Uint32Array(size),
      etim: new Uint32Array(size),
      price,
      priceInclSpecialTaxes: price,
      words: new Uint16Array(size).fill(1),
      idOrder,
      descriptionRank: new Uint32Array(size),
    },
  );
}

const snapshot = new SegmentSnapshot(
  'v',
  [shop(1, 'zeta', 3000, 1), shop(2, 'alpha', 500, 2), shop(3, 'mid', 4000, 3)],
  dictionary,
);

const manufacturers = (...values: string[]): FilterExpression => ({
  type: 'Or',
  operands: values.map((value) => ({ type: 'ExactStringMatchFilter', filterName: 'manufacturerName', value })),
});
const priceFrom = (units: number): FilterExpression => ({
  type: 'DecimalRangeFilter',
  filterName: 'pricePerMinimumOrderQuantity',
  lowerBound: { value: units, decimalDigits: 0 },
});

/** Seqs passing `filter` in global id order, by testing every article. */
function inIdOrder(filter: FilterExpression): number[] {
  return snapshot.inIdOrder.flatMap((segment) => {
    const test = segmentFilter(filter, segment, dictionary);
    return [...segment.columns.idOrder]
      .filter((i) => (typeof test === 'boolean' ? test : test(i)))
      .map((i) => segment.base + i);
  });
}

describe('searchSegments without words in id order', () => {
  const filters: [string, FilterExpression][] = [
    ['spread over the order', manufacturers('Bosch', 'Tesa')],
    ['rare', { type: 'And', operands: [manufacturers('Avery'), priceFrom(3990)] }],
    // The last half of each shop's id order: a walk from its start finds nothing for long.
    [
      'clustered at the end of the order',
      { type: 'And', operands: [manufacturers('Bosch', 'Tesa', 'Avery'), priceFrom(1500)] },
    ],
  ];
  for (const [name, filter] of filters) {
    it(`pages a filter whose articles are ${name} as testing every article does`, () => {
      const expected = inIdOrder(filter);
      expect(expected.length).toBeGreaterThan(0);
      for (const descending of [false, true]) {
        const all = descending ? [...expected].reverse() : expected;
        for (const [offset, limit] of [
          [0, 20],
          [0, 1000],
          [15, 7],
          [480, 40],
          [1990, 20],
          [all.length - 3, 20],
          [all.length + 5, 20],
          [3, 0],
        ] as const) {
          const query: SearchQuery = {
            words: [],
            filter,
            shopIds: [],
            sort: descending ? [{ field: 'id', descending: true }] : [],
            limit,
            offset: Math.max(0, offset),
            facets: ['manufacturerName'],
          };
          // Twice: the second time from the kept positions.
          for (let pass = 0; pass < 2; pass += 1) {
            const result = searchSegments({ snapshot, query, matches: undefined });
            expect(result.total).toBe(all.length);
            const seqs = result.hits(new Map()).map((hit) => hit.seq);
            expect(seqs, `${descending ? '-' : '+'}id offset ${offset} limit ${limit}`).toEqual(
              all.slice(Math.max(0, offset), Math.max(0, offset) + limit),
            );
          }
        }
      }
    });
  }
});
