import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateToLatest } from '@triad/db';
import { describeEachDatabase } from '@triad/db/testing';
import { contentStorageFor } from '../content-api-core.js';
import { generateCatalog } from '../demo/generate-catalog.js';
import { CONTENT_MIGRATION_TABLE } from '../migrations/index.js';
import type { ContentTables } from '../migrations/content-tables.js';
import type { Article } from '../model/article.js';
import { highlightText } from './highlight.js';
import { CORPUS_ARTICLES, CORPUS_QUERIES } from './relevance-corpus.js';
import type { SearchBackend } from './search-backend.js';
import { searchWords, type Matching, type SearchQuery } from './search-query.js';

const template = generateCatalog({ articles: 1, seed: 7 });
const shop = template.shops[0]!;
const base = [...template.articles()][0]!;
const articles: Article[] = CORPUS_ARTICLES.map((a) => ({
  ...base,
  id: `${shop.id}:${a.number}`,
  shopId: shop.id,
  supplierArticleId: a.number,
  description: a.description,
  descriptions: [{ lang: 'de', value: a.description }],
  descriptionsLong: [],
  keywords: [],
  internationalArticleIds: a.gtin ? [{ type: 'gtin', value: a.gtin }] : [],
  ...(a.manufacturerName !== undefined ? { manufacturerName: a.manufacturerName } : { manufacturerName: undefined }),
  ...(a.manufacturerArticleId !== undefined ? { manufacturerArticleId: a.manufacturerArticleId } : {}),
}));

function query(q: string, matching: Matching = 'default', overrides: Partial<SearchQuery> = {}): SearchQuery {
  return {
    words: searchWords(q),
    shopIds: [],
    sort: [],
    limit: 20,
    offset: 0,
    facets: ['manufacturerName'],
    matching,
    ...overrides,
  };
}

const numberOf = (hit: { article: Article } | undefined) => hit?.article.supplierArticleId ?? null;

describeEachDatabase<ContentTables>('relevance corpus', (getDb) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    const storage = contentStorageFor(getDb());
    await migrateToLatest(getDb(), { migrations: storage.migrations, tableName: CONTENT_MIGRATION_TABLE });
    await storage.backend.replaceCatalog({ shops: [shop], articles, hash: 'corpus-v1' });
    backend = storage.backend;
  });
  afterAll(async () => {
    await backend?.close();
  });

  it.each(CORPUS_QUERIES)('$q: $rule', async ({ q, first, second }) => {
    const page = await backend.search(query(q));
    expect(numberOf(page.hits[0])).toBe(first);
    if (second !== undefined) expect(numberOf(page.hits[1])).toBe(second);
    // Scores fall along the order, and every hit counts in the total and its facet bucket.
    for (let i = 1; i < page.hits.length; i += 1)
      expect(page.hits[i - 1]!.score).toBeGreaterThanOrEqual(page.hits[i]!.score);
    expect(page.hits.every((h) => h.score > 0)).toBe(true);
    const [manufacturers] = page.facets;
    expect(manufacturers!.buckets.reduce((sum, b) => sum + b.count, 0)).toBe(page.total);
    expect(page.total).toBe(page.hits.length);
  });

  it('matches only words as indexed with matching=exact', async () => {
    expect((await backend.search(query('bohrrer', 'exact'))).total).toBe(0);
    expect((await backend.search(query('bohrm', 'exact'))).total).toBe(0);
    expect((await backend.search(query('kuehlschrank', 'exact'))).total).toBe(0);
    expect(numberOf((await backend.search(query('kuhlschrank', 'exact'))).hits[0])).toBe('K-2001');
  });

  it('pages through matches of every class in one stable order, by score and by other orders', async () => {
    for (const sort of [
      [],
      [{ field: 'price', descending: false }],
      [{ field: 'description', descending: true }],
    ] as const) {
      const all = await backend.search(query('hammer', 'default', { sort, limit: 100 }));
      expect(all.total).toBe(2);
      const paged = [];
      for (let offset = 0; offset < all.total; offset += 1)
        paged.push(...(await backend.search(query('hammer', 'default', { sort, limit: 1, offset }))).hits);
      expect(paged.map(numberOf)).toEqual(all.hits.map(numberOf));
    }
    const wide = await backend.search(query('mi', 'default', { limit: 100 }));
    const pages = [];
    for (let offset = 0; offset < wide.total; offset += 3)
      pages.push(...(await backend.search(query('mi', 'default', { limit: 3, offset }))).hits);
    expect(wide.total).toBeGreaterThan(3);
    expect(pages.map(numberOf)).toEqual(wide.hits.map(numberOf));
  });

  it('reports the indexed words q matched in every way, which mark the words of a hit', async () => {
    const marked = async (q: string, matching: Matching = 'default') => {
      const page = await backend.search(query(q, matching));
      return page.hits.map((hit) => {
        const found = page.matched && highlightText(hit.article.description, page.matched);
        return found ? found.spans.map(([a, b]) => hit.article.description.slice(a, b)) : [];
      });
    };
    expect((await marked('bohrer')).flat()).toEqual(['Bohrer', 'Steinbohrer', 'Akkubohrer']);
    expect(await marked('bohrer', 'exact')).toEqual([['Bohrer']]);
    expect(await marked('kuehlschrank weis')).toEqual([['Kühlschrank', 'weiß']]);
    expect(await marked('hamer 50')).toEqual([['Hammer', '500']]);
    expect(await marked('kugellager 620')).toEqual([['Kugellager', '6204']]);
    expect(await marked('schlüssel')).toEqual([['Schraubenschlüssel']]);
    expect((await backend.search(query(''))).matched).toBeUndefined();
  });

  // Last: it changes the catalog.
  it('finds the words a delta brings by prefix and with typos at the next search', async () => {
    expect((await backend.search(query('zylinderk'))).total).toBe(0);
    const article = { ...articles[0]!, id: `${shop.id}:Z-9001`, supplierArticleId: 'Z-9001' };
    const added = {
      ...article,
      description: 'Zylinderkopfschraube M6',
      descriptions: [{ lang: 'de' as const, value: 'Zylinderkopfschraube M6' }],
    };
    await backend.applyShopDelta({ shop, changes: [{ kind: 'upsert', article: added }], hash: 'corpus-v2' });
    expect(numberOf((await backend.search(query('zylinderk'))).hits[0])).toBe('Z-9001');
    expect(numberOf((await backend.search(query('zylinderkopfschraueb'))).hits[0])).toBe('Z-9001');
  });
});
