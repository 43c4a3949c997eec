import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomInt, randomItem, seededRandom } from '@triad/common';
import { migrateToLatest } from '@triad/db';
import { describeEachDatabase } from '@triad/db/testing';
import { generateCatalog } from '../../demo/generate-catalog.js';
import { contentStorageFor } from '../../content-api-core.js';
import { CONTENT_MIGRATION_TABLE } from '../../migrations/index.js';
import type { ContentTables } from '../../migrations/content-tables.js';
import type { SearchBackend } from '../search-backend.js';
import { FACET_NAMES, SORT_FIELDS, type FilterExpression, type SearchPage, type SearchQuery } from '../search-query.js';
import { SearchWorkerPool } from './search-worker-pool.js';

const catalog = generateCatalog({ articles: 3000, seed: 23 });
const articles = [...catalog.articles()];

/** What a page says, comparable across threads (articles by id). */
function summary(page: SearchPage) {
  return {
    total: page.total,
    facets: page.facets,
    hits: page.hits.map((h) => [h.article.id, h.score]),
    matched: page.matched ? { words: [...page.matched.words].sort(), prefixes: page.matched.prefixes } : undefined,
  };
}

/** Random searches over the generated catalog: words (some prefixes and typos), filters, shops, sorts, pages. */
function randomQueries(count: number, seed: number): SearchQuery[] {
  const random = seededRandom(seed);
  const words = ['blue', 'red', 'classeur', 'pipette', 'gants', 'mm', 'xl', 'ordn', 'pipete', 'bosch', 'nothing'];
  const makers = ['', 'Bosch', 'Leitz', 'Nobody'];
  const shops = catalog.shops.map((s) => s.id);
  const filter = (depth: number): FilterExpression => {
    switch (randomInt(random, depth > 1 ? 3 : 4)) {
      case 0:
        return { type: 'ExactStringMatchFilter', filterName: 'manufacturerName', value: randomItem(random, makers) };
      case 1:
        return { type: 'ExactStringMatchFilter', filterName: 'businessShopId', value: randomItem(random, shops) };
      case 2:
        return {
          type: 'DecimalRangeFilter',
          filterName: 'pricePerMinimumOrderQuantity',
          upperBound: { value: randomInt(random, 20_000), decimalDigits: 2 },
        };
      default:
        return { type: randomInt(random, 2) === 0 ? 'And' : 'Or', operands: [filter(depth + 1), filter(depth + 1)] };
    }
  };
  return Array.from({ length: count }, () => ({
    words: Array.from({ length: randomInt(random, 3) }, () => randomItem(random, words)),
    shopIds: randomInt(random, 4) === 0 ? [randomItem(random, shops)] : [],
    ...(randomInt(random, 3) === 0 ? { filter: filter(1) } : {}),
    sort:
      randomInt(random, 2) === 0
        ? []
        : [{ field: randomItem(random, SORT_FIELDS), descending: randomInt(random, 2) === 0 }],
    limit: randomInt(random, 4) * 10,
    offset: randomInt(random, 3) * 7,
    facets: FACET_NAMES,
    matching: randomInt(random, 3) === 0 ? 'exact' : 'default',
  }));
}

describeEachDatabase<ContentTables>('search worker threads', (getDb) => {
  let backend: SearchBackend;
  let pool: SearchWorkerPool;
  beforeAll(async () => {
    const storage = contentStorageFor(getDb());
    await migrateToLatest(getDb(), { migrations: storage.migrations, tableName: CONTENT_MIGRATION_TABLE });
    await storage.backend.replaceCatalog({ shops: catalog.shops, articles, hash: 'threads-v1' });
    backend = storage.backend;
    pool = new SearchWorkerPool({ threads: 2 });
  });
  afterAll(async () => {
    await backend?.close();
    await pool?.close();
  });

  const compare = async (queries: readonly SearchQuery[]) => {
    backend.searchOn!(undefined);
    const expected: ReturnType<typeof summary>[] = [];
    for (const q of queries) expected.push(summary(await backend.search(q)));
    backend.searchOn!(pool);
    // Thirty at once: both workers busy, answers matched to their searches.
    for (let from = 0; from < queries.length; from += 30) {
      const batch = queries.slice(from, from + 30);
      const pages = await Promise.all(batch.map((q) => backend.search(q)));
      pages.forEach((page, n) => expect(summary(page), JSON.stringify(batch[n])).toEqual(expected[from + n]));
    }
    return expected;
  };

  let first: ReturnType<typeof summary>[] = [];

  it('answers totals, facets and pages exactly as a search on the calling thread, over random searches', async () => {
    const results = await compare(randomQueries(150, 7));
    first = results;
    expect(results.filter((r) => r.total > 0 && r.hits.length > 0).length).toBeGreaterThan(50);
    expect(results.some((r) => r.facets.some((f) => f.buckets.length > 1))).toBe(true);
  });

  it('answers searches asked a third time in the same catalog from kept answers, as the pass did', async () => {
    // Asked a second time: answered by the workers and kept.
    await compare(randomQueries(150, 7));
    const before = pool.keptAnswers;
    const results = await compare(randomQueries(150, 7));
    // Searches ordered by description ask the worker again, and lists too long to keep are read again.
    expect(pool.keptAnswers - before).toBeGreaterThan(50);
    expect(results.filter((r) => r.total > 0).length).toBeGreaterThan(50);
  });

  it('searches the catalog an import committed after the workers had the one before', async () => {
    const shop = catalog.shops[0]!;
    const kept = articles.filter((a) => a.shopId === shop.id).slice(0, 40);
    await backend.replaceShopCatalog({ shop, articles: kept, hash: 'threads-v2' });
    // The searches of the tests before, kept for the catalog before: answered for this one.
    const again = await compare(randomQueries(150, 7));
    expect(again.some((r, n) => JSON.stringify(r) !== JSON.stringify(first[n]))).toBe(true);
    const results = await compare(randomQueries(60, 8));
    const all = await backend.search({ words: [], shopIds: [shop.id], sort: [], limit: 0, offset: 0, facets: [] });
    expect(all.total).toBe(40);
    expect(results.length).toBe(60);
  });
});

describeEachDatabase<ContentTables>('search worker threads, for small catalogs', (getDb) => {
  it('searches a catalog below `fromArticles` on the calling thread and starts workers for a larger one', async () => {
    const storage = contentStorageFor(getDb());
    await migrateToLatest(getDb(), { migrations: storage.migrations, tableName: CONTENT_MIGRATION_TABLE });
    await storage.backend.replaceCatalog({ shops: catalog.shops, articles: articles.slice(0, 400), hash: 'from-v1' });
    const pool = new SearchWorkerPool({ threads: 2, fromArticles: 1000 });
    try {
      const queries = randomQueries(20, 9);
      const expected: ReturnType<typeof summary>[] = [];
      for (const q of queries) expected.push(summary(await storage.backend.search(q)));
      storage.backend.searchOn!(pool);
      for (const [n, q] of queries.entries()) expect(summary(await storage.backend.search(q))).toEqual(expected[n]);
      expect(pool.started).toBe(0);
      await storage.backend.replaceCatalog({ shops: catalog.shops, articles, hash: 'from-v2' });
      const all = await storage.backend.search({ words: [], shopIds: [], sort: [], limit: 1, offset: 0, facets: [] });
      expect(all.total).toBe(articles.length);
      expect(pool.started).toBe(2);
    } finally {
      await storage.backend.close();
      await pool.close();
    }
  });

  it('starts its workers ahead for a catalog large enough for them, and not for a smaller one', async () => {
    const pool = new SearchWorkerPool({ threads: 2, fromArticles: 1000 });
    try {
      pool.prepare(999);
      expect(pool.started).toBe(0);
      pool.prepare(1000);
      expect(pool.started).toBe(2);
      pool.prepare(5000);
      expect(pool.started).toBe(2);
    } finally {
      await pool.close();
    }
  });
});

describeEachDatabase<ContentTables>('search worker threads, when busy', (getDb) => {
  it('refuses searches beyond the bound with 503 at once and answers the others', async () => {
    const storage = contentStorageFor(getDb());
    await migrateToLatest(getDb(), { migrations: storage.migrations, tableName: CONTENT_MIGRATION_TABLE });
    await storage.backend.replaceCatalog({ shops: catalog.shops, articles: articles.slice(0, 500), hash: 'busy-v1' });
    const pool = new SearchWorkerPool({ threads: 1, maxInFlight: 2 });
    try {
      storage.backend.searchOn!(pool);
      const q: SearchQuery = { words: [], shopIds: [], sort: [], limit: 5, offset: 0, facets: FACET_NAMES };
      const outcomes = await Promise.allSettled(Array.from({ length: 12 }, () => storage.backend.search(q)));
      const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.length).toBeLessThan(12);
      for (const o of refused) expect(o.reason).toMatchObject({ status: 503 });
      expect((await storage.backend.search(q)).total).toBe(500);
    } finally {
      await storage.backend.close();
      await pool.close();
    }
  });
});
