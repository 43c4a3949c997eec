import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { generateCatalog } from '../demo/generate-catalog.js';
import { pricePerMinimumOrderQuantity } from '../model/article-prices.js';
import { toScaled } from '../model/decimal.js';
import { loadTestCatalog } from '../test-support/content-test-app.js';
import type { SearchBackend } from './search-backend.js';
import { FACET_NAMES, searchWords, type SearchQuery } from './search-query.js';

const ARTICLES = 200;
const all = [...generateCatalog({ articles: ARTICLES, seed: 7 }).articles()];

function query(overrides: Partial<SearchQuery> = {}): SearchQuery {
  return { words: [], shopIds: [], sort: [], limit: 20, offset: 0, facets: [], ...overrides };
}

describeEachDatabase('search backend', (getDb) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    backend = await loadTestCatalog(getDb(), ARTICLES);
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
    const expected = all.filter((a) => a.descriptions.some((d) => d.lang === 'fr' && d.value.includes('classeur'))).length;
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
            { type: 'Or', operands: [{ type: 'ExactStringMatchFilter', filterName: 'manufacturerName', value: 'Bosch' }, { type: 'ExactStringMatchFilter', filterName: 'manufacturerName', value: 'Leitz' }] },
            { type: 'ExactStringMatchFilter', filterName: 'businessShopId', value: 'labtools' },
          ],
        },
      }),
    );
    const expected = all.filter((a) => a.shopId === 'labtools' && (a.manufacturerName === 'Bosch' || a.manufacturerName === 'Leitz'));
    expect(page.total).toBe(expected.length);
    expect(page.hits.map((h) => h.article.id).sort()).toEqual(expected.map((a) => a.id).sort());
  });

  it('filters by a decimal price range with exact bounds', async () => {
    const page = await backend.search(
      query({ limit: 1000, filter: { type: 'DecimalRangeFilter', filterName: 'pricePerMinimumOrderQuantity', lowerBound: { value: 10, decimalDigits: 0 }, upperBound: { value: 5000, decimalDigits: 2 } } }),
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
    expect(ids).toEqual([...all].map((a) => a.id).sort().slice(0, 20));
  });

  it('counts facet buckets that sum to the matching articles', async () => {
    const page = await backend.search(query({ words: ['blue'], facets: [...FACET_NAMES], limit: 0 }));
    expect(page.hits).toEqual([]);
    for (const facet of page.facets) {
      expect(facet.buckets.reduce((s, b) => s + b.count, 0)).toBe(page.total);
    }
    const shops = page.facets.find((f) => f.facetName === 'businessShopId')!;
    const expected = all.filter((a) => a.descriptions.some((d) => /\bblue\b/.test(d.value)) && a.shopId === shops.buckets[0]!.value).length;
    expect(shops.buckets[0]!.count).toBe(expected);
  });

  it('lists shops in id order with the total', async () => {
    const { total, shops } = await backend.listShops(2, 1);
    expect(total).toBe(4);
    expect(shops.map((s) => s.id)).toEqual(['labtools', 'office-direct']);
    expect(await backend.findShop('labtools')).toMatchObject({ name: 'LabTools Europe B.V.' });
  });
});
