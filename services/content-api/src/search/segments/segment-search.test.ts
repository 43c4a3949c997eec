import { randomInt, seededRandom } from '@triad/common';
import { describe, expect, it } from 'vitest';
import type { FacetName, FilterExpression, SearchQuery, SortKey } from '../search-query.js';
import { SmallestNumbers } from './bounded-heap.js';
import { FacetDictionary } from './facet-dictionary.js';
import { SLOT_SPAN, type SegmentColumns } from './segment-columns.js';
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

/** A small deterministic generator (mulberry32), so a failing case can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const MANUFACTURERS = ['Bosch', 'Tesa', 'Makita', 'Pelikan', 'Leitz'];

/**
 * Three shops (slots 0, 1 and 3) of random articles: facet keys, lengths (many equal), id orders.
 * `classified`: ETIM, UNSPSC-7 and UNSPSC-9 groups too (keys 11 to 16), so up to seven facets count.
 */
function catalog(next: () => number, classified = false): SegmentSnapshot {
  const dictionary = new FacetDictionary();
  let key = 0;
  for (const value of MANUFACTURERS) dictionary.add({ key: (key += 1), facet: 'manufacturerName', value });
  for (const value of ['19-01', '19-02', '24-11']) dictionary.add({ key: (key += 1), facet: 'ECLASS', value });
  for (const value of ['44121700', '31201500']) dictionary.add({ key: (key += 1), facet: 'UNSPSC', value });
  if (classified)
    for (const [facet, values] of [
      ['ETIM', ['EC000001', 'EC000002']],
      ['UNSPSC-7', ['4412170']],
      ['UNSPSC-9', ['441217001', '441217002', '441217003']],
    ] as const)
      for (const value of values) dictionary.add({ key: (key += 1), facet, value });
  const pick = (from: number, to: number) => (next() < 0.2 ? 0 : from + Math.floor(next() * (to - from + 1)));
  const segments = [
    { slot: 0, shopId: 'beta', size: 300 },
    { slot: 1, shopId: 'alpha', size: 200 },
    { slot: 3, shopId: 'gamma', size: 250 },
  ].map(({ slot, shopId, size }) => {
    const column = (value: () => number) => Uint32Array.from({ length: size }, value);
    const order = Array.from({ length: size }, (_, i) => i).sort(() => next() - 0.5);
    const columns: SegmentColumns = {
      manufacturer: column(() => pick(1, 5)),
      eclass: column(() => pick(6, 8)),
      unspsc: column(() => pick(9, 10)),
      unspsc7: column(() => (classified ? pick(13, 13) : 0)),
      unspsc9: column(() => (classified ? pick(14, 16) : 0)),
      etim: column(() => (classified ? pick(11, 12) : 0)),
      price: Float64Array.from({ length: size }, () => Math.floor(next() * 1000) * 10_000),
      priceInclSpecialTaxes: Float64Array.from({ length: size }, () => 0),
      words: Uint16Array.from({ length: size }, () => 1 + Math.floor(next() * 12)),
      idOrder: Uint32Array.from(order),
      descriptionRank: column(() => Math.floor(next() * 50)),
    };
    const wordTotal = columns.words.reduce((sum, w) => sum + w, 0);
    return new Segment({ slot, shopId, generation: 'g', size, wordTotal }, columns);
  });
  return new SegmentSnapshot('h', segments, dictionary);
}

/** A random query with words: its matches (a random share of every shop, ascending) and maybe classes. */
function wordQuery(snapshot: SegmentSnapshot, next: () => number) {
  const share = [0.02, 0.3, 0.9][Math.floor(next() * 3)] ?? 0.3;
  const runs: number[][] = [];
  for (const segment of snapshot.segments) {
    const run: number[] = [];
    for (let i = 0; i < segment.size; i += 1) if (next() < share) run.push(segment.header.slot * SLOT_SPAN + i);
    runs.push(run);
  }
  // Seqs of a slot without a segment (another snapshot's) count for nothing.
  if (next() < 0.2) runs.splice(2, 0, [2 * SLOT_SPAN + 1, 2 * SLOT_SPAN + 5]);
  // Runs of shops out of slot order (a reader may concatenate them so) count the same.
  if (next() < 0.2) runs.reverse();
  const seqs = runs.flat();
  const matches = Float64Array.from(seqs);
  const classes = next() < 0.5 ? Uint8Array.from(seqs, () => Math.floor(next() * 4)) : undefined;
  const facets = (['businessShopId', 'manufacturerName', 'ECLASS', 'UNSPSC', 'ETIM'] as FacetName[]).filter(
    () => next() < 0.7,
  );
  const filter: FilterExpression | undefined =
    next() < 0.3
      ? {
          type: 'Or',
          operands: [
            { type: 'ExactStringMatchFilter', filterName: 'manufacturerName', value: 'Bosch' },
            { type: 'ExactStringMatchFilter', filterName: 'manufacturerName', value: 'Tesa' },
          ],
        }
      : undefined;
  const sort: SortKey[] = next() < 0.8 ? [] : [{ field: 'score', descending: true }];
  const limit = [0, 1, 20, 100][Math.floor(next() * 4)] ?? 20;
  const query: SearchQuery = {
    words: next() < 0.5 ? ['pen'] : ['pen', 'blue'],
    shopIds: next() < 0.2 ? ['alpha', 'gamma'] : [],
    sort,
    limit,
    offset: Math.floor(next() * 3) * 7,
    facets,
    matching: 'default',
    ...(filter ? { filter } : {}),
  };
  return { query, matches, classes };
}

describe('searchSegments', () => {
  it('gives the same total, facets, page and scores on the fast path as on the general one', () => {
    const next = random(30);
    for (let round = 0; round < 20; round += 1) {
      const snapshot = catalog(next);
      for (let q = 0; q < 15; q += 1) {
        const { query, matches, classes } = wordQuery(snapshot, next);
        const run = (fastPaths: boolean) => {
          const result = searchSegments({ snapshot, query, matches, classes, fastPaths });
          return { total: result.total, facets: result.facets, hits: result.hits(new Map()) };
        };
        const general = run(false);
        expect(run(true), JSON.stringify({ round, q, query })).toEqual(general);
        if (query.limit > 0 && general.total > query.offset) expect(general.hits.length).toBeGreaterThan(0);
      }
    }
  });
});

/** Each facet's counts (value to count) as counting every article that matches and passes does. */
function countedOneByOne(
  snapshot: SegmentSnapshot,
  query: SearchQuery,
  matches: Float64Array | undefined,
): Map<FacetName, Map<string, number>> {
  const columnOf = {
    manufacturerName: 'manufacturer',
    ECLASS: 'eclass',
    UNSPSC: 'unspsc',
    ETIM: 'etim',
    'UNSPSC-7': 'unspsc7',
    'UNSPSC-9': 'unspsc9',
  } as const;
  const counts = new Map(query.facets.map((f) => [f, new Map<string, number>()]));
  const add = (facet: FacetName, value: string) => {
    const bucket = counts.get(facet)!;
    bucket.set(value, (bucket.get(value) ?? 0) + 1);
  };
  for (const segment of snapshot.segments) {
    if (query.shopIds.length > 0 && !query.shopIds.includes(segment.shopId)) continue;
    const test = query.filter ? segmentFilter(query.filter, segment, snapshot.dictionary) : true;
    for (let i = 0; i < segment.size; i += 1) {
      if (matches && !matches.includes(segment.base + i)) continue;
      if (typeof test === 'boolean' ? !test : !test(i)) continue;
      for (const facet of query.facets) {
        if (facet === 'businessShopId') add(facet, segment.shopId);
        else add(facet, snapshot.dictionary.valueOf(segment.columns[columnOf[facet]][i]!));
      }
    }
  }
  return counts;
}

describe('searchSegments facet counts', () => {
  it('counts up to seven facets over word matches and filter positions as counting each article does', () => {
    const next = random(31);
    const all: FacetName[] = ['businessShopId', 'manufacturerName', 'ECLASS', 'UNSPSC', 'ETIM', 'UNSPSC-7', 'UNSPSC-9'];
    let counted = 0;
    for (let round = 0; round < 8; round += 1) {
      const snapshot = catalog(next, true);
      for (let q = 0; q < 12; q += 1) {
        const { query: drawn, matches } = wordQuery(snapshot, next);
        // Any number of facets in any order, so each of the four written-out counters and the loop past them count.
        const facets = all.filter(() => next() < 0.6).sort(() => next() - 0.5);
        const words = q % 3 !== 0;
        const filter: FilterExpression | undefined =
          words && next() < 0.5
            ? drawn.filter
            : { type: 'And', operands: [manufacturers('Bosch', 'Tesa', 'Leitz'), priceFrom(Math.floor(next() * 8))] };
        const query: SearchQuery = { ...drawn, facets, words: words ? drawn.words : [], ...(filter ? { filter } : {}) };
        const result = searchSegments({ snapshot, query, matches: words ? matches : undefined });
        const expected = countedOneByOne(snapshot, query, words ? matches : undefined);
        const got = new Map(
          result.facets.map((f) => [f.facetName, new Map(f.buckets.map((b) => [b.value, b.count]))] as const),
        );
        expect(got, JSON.stringify({ round, q, query })).toEqual(expected);
        counted += [...expected.values()].reduce((n, m) => n + m.size, 0);
      }
    }
    expect(counted).toBeGreaterThan(100);
  });
});

describe('SmallestNumbers', () => {
  it('keeps the smallest distinct numbers offered, whatever the order and the bound skipped', () => {
    const next = random(7);
    for (const count of [0, 1, 5, 300, 2000]) {
      const values = [...new Set(Array.from({ length: 5000 }, () => Math.floor(next() * 1e9)))];
      const smallest = new SmallestNumbers(count);
      // As the search offers: only below the bound.
      for (const value of values) if (value < smallest.bound) smallest.offer(value);
      const expected = [...values].sort((a, b) => a - b).slice(0, count);
      expect([...smallest.sorted()]).toEqual(expected);
      if (count > 0 && count < 1000) expect(smallest.bound).toBeLessThan(Infinity);
    }
  });
});
