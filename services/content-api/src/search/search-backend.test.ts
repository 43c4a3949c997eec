import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { generateCatalog } from '../demo/generate-catalog.js';
import { pricePerMinimumOrderQuantity } from '../model/article-prices.js';
import { toScaled } from '../model/decimal.js';
import { compareCodePoints } from './code-point-order.js';
import { loadTestCatalog } from '../test-support/content-test-app.js';
import type { SearchBackend } from './search-backend.js';
import { FACET_NAMES, searchWords, type SearchQuery } from './search-query.js';
import type { ContentTables } from '../migrations/content-tables.js';

const ARTICLES = 200;
const all = [...generateCatalog({ articles: ARTICLES, seed: 7 }).articles()];

function query(overrides: Partial<SearchQuery> = {}): SearchQuery {
  return { words: [], shopIds: [], sort: [], limit: 20, offset: 0, facets: [], ...overrides };
}

describeEachDatabase<ContentTables>('search backend', (getDb) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    backend = await loadTestCatalog(getDb(), ARTICLES);
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('stores every generated article and the content version', async () => {
    expect(await backend.countArticles()).toBe(ARTICLES);
    expect(await backend.currentHash()).toBe('test-v1');
  });

  it('returns an article unchanged by id and undefined for an unknown id', async () => {
    const first = all[0]!;
    expect(await backend.findArticle(first.id)).toEqual(first);
    expect(await backend.findArticle('nope')).toBeUndefined();
  });

  it('finds articles by a word of any language and counts exactly the matching ones', async () => {
    const expected = all.filter((a) =>
      a.descriptions.some((d) => d.lang === 'fr' && d.value.includes('classeur')),
    ).length;
    expect(expected).toBeGreaterThan(0);
    const page = await backend.search(query({ words: ['classeur'], limit: 1000 }));
    expect(page.total).toBe(expected);
    expect(page.hits.every((h) => h.score > 0)).toBe(true);
  });

  it('finds an article by its supplier article id', async () => {
    const target = all[42]!;
    const page = await backend.search(query({ words: searchWords(target.supplierArticleId) }));
    expect(page.hits.map((h) => h.article.id)).toContain(target.id);
  });

  it('filters by shop and by a nested And/Or tree', async () => {
    const page = await backend.search(
      query({
        limit: 1000,
        filter: {
          type: 'And',
          operands: [
            {
              type: 'Or',
              operands: [
                { type: 'ExactStringMatchFilter', filterName: 'manufacturerName', value: 'Bosch' },
                { type: 'ExactStringMatchFilter', filterName: 'manufacturerName', value: 'Leitz' },
              ],
            },
            { type: 'ExactStringMatchFilter', filterName: 'businessShopId', value: 'labtools' },
          ],
        },
      }),
    );
    const expected = all.filter(
      (a) => a.shopId === 'labtools' && (a.manufacturerName === 'Bosch' || a.manufacturerName === 'Leitz'),
    );
    expect(page.total).toBe(expected.length);
    expect(page.hits.map((h) => h.article.id).sort()).toEqual(expected.map((a) => a.id).sort());
  });

  it('filters by a decimal price range with exact bounds', async () => {
    const page = await backend.search(
      query({
        limit: 1000,
        filter: {
          type: 'DecimalRangeFilter',
          filterName: 'pricePerMinimumOrderQuantity',
          lowerBound: { value: 10, decimalDigits: 0 },
          upperBound: { value: 5000, decimalDigits: 2 },
        },
      }),
    );
    const expected = all.filter((a) => {
      const p = toScaled(pricePerMinimumOrderQuantity(a));
      return p >= 10_000_000n && p <= 50_000_000n;
    });
    expect(page.total).toBe(expected.length);
  });

  it('sorts by price descending with ties broken by id', async () => {
    const page = await backend.search(query({ sort: [{ field: 'price', descending: true }], limit: 50 }));
    const prices = page.hits.map((h) => toScaled(pricePerMinimumOrderQuantity(h.article)));
    for (let i = 1; i < prices.length; i += 1) expect(prices[i - 1]! >= prices[i]!).toBe(true);
  });

  it('pages without overlap and orders by id without words', async () => {
    const first = await backend.search(query({ limit: 10, offset: 0 }));
    const second = await backend.search(query({ limit: 10, offset: 10 }));
    const ids = [...first.hits, ...second.hits].map((h) => h.article.id);
    expect(new Set(ids).size).toBe(20);
    expect(ids).toEqual(
      [...all]
        .map((a) => a.id)
        .sort()
        .slice(0, 20),
    );
  });

  it('counts facet buckets that sum to the matching articles', async () => {
    const page = await backend.search(query({ words: ['blue'], facets: [...FACET_NAMES], limit: 0 }));
    expect(page.hits).toEqual([]);
    for (const facet of page.facets) {
      expect(facet.buckets.reduce((s, b) => s + b.count, 0)).toBe(page.total);
    }
    const shops = page.facets.find((f) => f.facetName === 'businessShopId')!;
    const expected = all.filter(
      (a) => a.descriptions.some((d) => /\bblue\b/.test(d.value)) && a.shopId === shops.buckets[0]!.value,
    ).length;
    expect(shops.buckets[0]!.count).toBe(expected);
  });

  it('sorts by description across shops in code point order, ties by id, the same on every page', async () => {
    const expected = [...all]
      .sort((a, b) => compareCodePoints(a.description, b.description) || compareCodePoints(a.id, b.id))
      .map((a) => a.id);
    const sort = [{ field: 'description' as const, descending: false }];
    const first = await backend.search(query({ sort, limit: 30 }));
    const second = await backend.search(query({ sort, limit: 30, offset: 30 }));
    expect([...first.hits, ...second.hits].map((h) => h.article.id)).toEqual(expected.slice(0, 60));
    const descending = await backend.search(query({ sort: [{ field: 'description', descending: true }], limit: 10 }));
    const reversed = [...all]
      .sort((a, b) => compareCodePoints(b.description, a.description) || compareCodePoints(a.id, b.id))
      .map((a) => a.id);
    expect(descending.hits.map((h) => h.article.id)).toEqual(reversed.slice(0, 10));
  });

  it('sorts by manufacturer then price descending, ties by id', async () => {
    const price = (a: (typeof all)[number]) => toScaled(pricePerMinimumOrderQuantity(a));
    const expected = [...all]
      .sort(
        (a, b) =>
          compareCodePoints(a.manufacturerName!, b.manufacturerName!) ||
          (price(a) === price(b) ? compareCodePoints(a.id, b.id) : price(a) > price(b) ? -1 : 1),
      )
      .map((a) => a.id);
    const page = await backend.search(
      query({
        sort: [
          { field: 'manufacturerName', descending: false },
          { field: 'price', descending: true },
        ],
        limit: 40,
        offset: 15,
      }),
    );
    expect(page.hits.map((h) => h.article.id)).toEqual(expected.slice(15, 55));
  });

  it('pages by manufacturer descending with ties by id, deep pages included', async () => {
    const expected = [...all]
      .sort((a, b) => compareCodePoints(b.manufacturerName!, a.manufacturerName!) || compareCodePoints(a.id, b.id))
      .map((a) => a.id);
    const sort = [{ field: 'manufacturerName' as const, descending: true }];
    const page = await backend.search(query({ sort, limit: 7, offset: 150 }));
    expect(page.hits.map((h) => h.article.id)).toEqual(expected.slice(150, 157));
    const blue = all.filter((a) => a.descriptions.some((d) => searchWords(d.value).includes('blue')));
    const words = await backend.search(query({ words: ['blue'], sort, limit: 100 }));
    expect(words.hits.map((h) => h.article.id)).toEqual(expected.filter((id) => blue.some((a) => a.id === id)));
  });

  it('orders by id descending without words and skips the offset', async () => {
    const page = await backend.search(
      query({ sort: [{ field: 'id', descending: true }], limit: 5, offset: 48, shopIds: ['labtools', 'cz-technik'] }),
    );
    const expected = all
      .filter((a) => a.shopId === 'labtools' || a.shopId === 'cz-technik')
      .map((a) => a.id)
      .sort(compareCodePoints)
      .reverse();
    expect(page.total).toBe(expected.length);
    expect(page.hits.map((h) => h.article.id)).toEqual(expected.slice(48, 53));
  });

  it('ranks shorter matching articles first and scores by words with equal scores for equal lengths', async () => {
    const page = await backend.search(query({ words: ['pipette'], limit: 1000 }));
    const scores = page.hits.map((h) => h.score);
    for (let i = 1; i < scores.length; i += 1) expect(scores[i - 1]! >= scores[i]!).toBe(true);
    expect(page.total).toBe(
      all.filter((a) => searchWords(a.descriptions.map((d) => d.value).join(' ')).includes('pipette')).length,
    );
  });

  it('counts every facet exactly, with and without words and filters', async () => {
    const count = (articles: readonly (typeof all)[number][]) => {
      const tally = (values: (string | undefined)[], labels?: Map<string, string>) => {
        const m = new Map<string, number>();
        for (const v of values) m.set(v ?? '', (m.get(v ?? '') ?? 0) + 1);
        return [...m]
          .sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0]))
          .map(([value, n]) => ({ value, count: n, ...(labels?.has(value) ? { label: labels.get(value) } : {}) }));
      };
      const first = (a: (typeof all)[number], system: string) =>
        a.classifications.find((c) => c.systemName.split('-')[0] === system);
      const group = (a: (typeof all)[number], system: string) =>
        a.classifications.find((c) => c.systemName === system)?.groupId;
      const eclassNames = new Map(
        all.map((a) => [first(a, 'ECLASS')?.groupId ?? '', first(a, 'ECLASS')?.groupName ?? '']),
      );
      return [
        { facetName: 'businessShopId', buckets: tally(articles.map((a) => a.shopId)) },
        { facetName: 'manufacturerName', buckets: tally(articles.map((a) => a.manufacturerName)) },
        { facetName: 'UNSPSC-7', buckets: tally(articles.map((a) => group(a, 'UNSPSC-7'))) },
        { facetName: 'UNSPSC-9', buckets: tally(articles.map((a) => group(a, 'UNSPSC-9'))) },
        // The demo's first UNSPSC classification is its UNSPSC-7 one.
        { facetName: 'UNSPSC', buckets: tally(articles.map((a) => first(a, 'UNSPSC')?.groupId)) },
        {
          facetName: 'ECLASS',
          buckets: tally(
            articles.map((a) => first(a, 'ECLASS')?.groupId),
            eclassNames,
          ),
        },
        { facetName: 'ETIM', buckets: tally(articles.map(() => undefined)) },
      ];
    };
    const facets = [...FACET_NAMES];
    expect((await backend.search(query({ facets, limit: 0 }))).facets).toEqual(count(all));
    // A filter every article passes makes the engines count article by article instead of using stored counts.
    const everything = {
      type: 'DecimalRangeFilter' as const,
      filterName: 'pricePerMinimumOrderQuantity' as const,
      lowerBound: { value: 0, decimalDigits: 0 },
    };
    expect((await backend.search(query({ facets, limit: 0, filter: everything }))).facets).toEqual(count(all));
    const shops = ['office-direct', 'werkstatt-profi'];
    const inShops = all.filter((a) => shops.includes(a.shopId));
    expect((await backend.search(query({ facets, limit: 0, shopIds: shops }))).facets).toEqual(count(inShops));
    const red = all.filter((a) => a.descriptions.some((d) => searchWords(d.value).includes('red')));
    expect((await backend.search(query({ words: ['red'], facets, limit: 0 }))).facets).toEqual(count(red));
  });

  it('lists shops in id order with the total', async () => {
    const { total, shops } = await backend.listShops(2, 1);
    expect(total).toBe(4);
    expect(shops.map((s) => s.id)).toEqual(['labtools', 'office-direct']);
    expect(await backend.findShop('labtools')).toMatchObject({ name: 'LabTools Europe B.V.' });
  });
});
