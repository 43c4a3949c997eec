import { generateCatalog } from '../demo/generate-catalog.js';
import type { SearchQuery } from '../search/search-query.js';
import { TEST_SEED } from './content-test-app.js';

/** The small generated catalog the delta suites change: 80 articles, the labtools shop picked out. */
export const DELTA_TEST_ARTICLES = 80;
export const deltaCatalog = generateCatalog({ articles: DELTA_TEST_ARTICLES, seed: TEST_SEED });
export const deltaArticles = [...deltaCatalog.articles()];
export const labtools = deltaCatalog.shops.find((s) => s.id === 'labtools')!;
export const labtoolsArticles = deltaArticles.filter((a) => a.shopId === 'labtools');

/** A search of every shop, no words, up to 1,000 hits, with `overrides`. */
export function deltaQuery(overrides: Partial<SearchQuery>): SearchQuery {
  return { words: [], shopIds: [], sort: [], limit: 1000, offset: 0, facets: [], ...overrides };
}
