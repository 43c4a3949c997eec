import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { generateCatalog } from '../demo/generate-catalog.js';
import { contentStorageFor } from '../migrations/index.js';
import { loadTestCatalog, TEST_SEED } from '../test-support/content-test-app.js';
import type { ContentTables } from './content-tables.js';
import type { SearchBackend } from './search-backend.js';
import { FACET_NAMES, type SearchQuery } from './search-query.js';

const ARTICLES = 60;
const catalog = generateCatalog({ articles: ARTICLES, seed: TEST_SEED });
const all = [...catalog.articles()];
const labtools = catalog.shops.find((s) => s.id === 'labtools')!;
const query = (overrides: Partial<SearchQuery> = {}): SearchQuery => ({
  words: [],
  shopIds: [],
  sort: [],
  limit: 5,
  offset: 0,
  facets: [...FACET_NAMES],
  ...overrides,
});

// Two backends on one store stand for two service instances (or the service and the CLI).
describeEachDatabase<ContentTables>('one catalog, two instances', (getDb) => {
  let first: SearchBackend;
  let second: SearchBackend;
  beforeAll(async () => {
    first = await loadTestCatalog(getDb(), ARTICLES);
    second = contentStorageFor(getDb()).backend;
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it("shows one instance's import at the other's next search, other shops unchanged", async () => {
    const before = await second.search(query({ words: ['blue'] }));
    const otherShops = await second.search(query({ shopIds: ['office-direct'], limit: 50 }));
    await first.replaceShopCatalog({ shop: labtools, articles: [], hash: 'emptied' });
    const after = await second.search(query({ words: ['blue'] }));
    const lab = all.filter((a) => a.shopId === 'labtools');
    const blueInLab = lab.filter((a) => a.descriptions.some((d) => /\bblue\b/i.test(d.value))).length;
    expect(blueInLab).toBeGreaterThan(0);
    expect(after.total).toBe(before.total - blueInLab);
    expect(after.facets.find((f) => f.facetName === 'businessShopId')!.buckets.map((b) => b.value)).not.toContain(
      'labtools',
    );
    expect(await second.search(query({ shopIds: ['office-direct'], limit: 50 }))).toEqual(otherShops);
    expect(await second.countArticles()).toBe(ARTICLES - lab.length);
  });
});
