import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomInt, randomItem, seededRandom } from '@triad/common';
import { migrateToLatest } from '@triad/db';
import { describeEachDatabase } from '@triad/db/testing';
import { generateCatalog } from '../demo/generate-catalog.js';
import { contentStorageFor } from '../content-api-core.js';
import { CONTENT_MIGRATION_TABLE } from '../migrations/index.js';
import type { Article } from '../model/article.js';
import type { ContentTables } from '../migrations/content-tables.js';
import type { SearchBackend } from './search-backend.js';
import { FACET_BUCKET_LIMIT, FACET_NAMES, type FilterExpression, type SearchQuery } from './search-query.js';

const ARTICLES = 400;

/**
 * The demo catalog made awkward for facets: every 7th article without a manufacturer, every 5th
 * without a classification, every 3rd with a manufacturer of its own (more than 100 values).
 */
function awkwardArticle(article: Article, n: number): Article {
  const { manufacturerName: _dropped, ...rest } = article;
  const changed: Article = n % 7 === 0 ? rest : n % 3 === 0 ? { ...rest, manufacturerName: `Maker ${n}` } : article;
  return n % 5 === 0 ? { ...changed, classifications: [] } : changed;
}

const catalog = generateCatalog({ articles: ARTICLES, seed: 11 });
const all = [...catalog.articles()].map(awkwardArticle);

const group = (a: Article, system: string) => a.classifications.find((c) => c.systemName === system)?.groupId ?? '';

function query(overrides: Partial<SearchQuery> = {}): SearchQuery {
  return { words: [], shopIds: [], sort: [], limit: 0, offset: 0, facets: FACET_NAMES, ...overrides };
}

describeEachDatabase<ContentTables>('search facets', (getDb) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    const storage = contentStorageFor(getDb());
    await migrateToLatest(getDb(), { migrations: storage.migrations, tableName: CONTENT_MIGRATION_TABLE });
    await storage.backend.replaceCatalog({ shops: catalog.shops, articles: all, hash: 'facets-v1' });
    backend = storage.backend;
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('counts articles without a manufacturer or group in the "" bucket, which filters to them', async () => {
    const page = await backend.search(query());
    const bucket = (facetName: string, value: string) =>
      page.facets.find((f) => f.facetName === facetName)?.buckets.find((b) => b.value === value && !b.otherValues);
    const noMaker = all.filter((a) => a.manufacturerName === undefined);
    expect(bucket('manufacturerName', '')?.count).toBe(noMaker.length);
    expect(bucket('UNSPSC-7', '')?.count).toBe(all.filter((a) => group(a, 'UNSPSC-7') === '').length);
    const filtered = await backend.search(
      query({ limit: 1000, filter: { type: 'ExactStringMatchFilter', filterName: 'manufacturerName', value: '' } }),
    );
    expect(filtered.hits.map((h) => h.article.id).sort()).toEqual(noMaker.map((a) => a.id).sort());
    const noGroup = await backend.search(
      query({ filter: { type: 'ExactReferenceFeatureMatchFilter', filterName: 'UNSPSC-9', group: '' } }),
    );
    expect(noGroup.total).toBe(all.filter((a) => group(a, 'UNSPSC-9') === '').length);
  });

  it('returns at most 100 buckets, the last gathering every other value', async () => {
    const page = await backend.search(query());
    const makers = page.facets.find((f) => f.facetName === 'manufacturerName')!.buckets;
    expect(makers).toHaveLength(FACET_BUCKET_LIMIT);
    const distinct = new Set(all.map((a) => a.manufacturerName ?? '')).size;
    expect(makers.at(-1)).toMatchObject({ value: '', otherValues: distinct - (FACET_BUCKET_LIMIT - 1) });
    expect(makers.slice(0, -1).every((b) => b.otherValues === undefined)).toBe(true);
  });

  it('puts every article of a search in exactly one bucket of each facet, over random searches', async () => {
    const random = seededRandom(5);
    const words = ['blue', 'red', 'classeur', 'pipette', 'gants', 'mm', 'xl', 'nothingmatches'];
    const makers = ['', 'Bosch', 'Leitz', 'Maker 3', 'Maker 9', 'Nobody'];
    const groups = ['', '44121704', '41121806', '0'];
    const shops = catalog.shops.map((s) => s.id);
    const randomFilter = (depth: number): FilterExpression => {
      switch (randomInt(random, depth > 1 ? 4 : 5)) {
        case 0:
          return { type: 'ExactStringMatchFilter', filterName: 'manufacturerName', value: randomItem(random, makers) };
        case 1:
          return {
            type: 'ExactReferenceFeatureMatchFilter',
            filterName: 'UNSPSC-7',
            group: randomItem(random, groups),
          };
        case 2:
          return { type: 'ExactStringMatchFilter', filterName: 'businessShopId', value: randomItem(random, shops) };
        case 3:
          return {
            type: 'DecimalRangeFilter',
            filterName: 'pricePerMinimumOrderQuantity',
            upperBound: { value: randomInt(random, 20_000), decimalDigits: 2 },
          };
        default:
          return {
            type: randomInt(random, 2) === 0 ? 'And' : 'Or',
            operands: [randomFilter(depth + 1), randomFilter(depth + 1)],
          };
      }
    };
    let nonEmpty = 0;
    for (let run = 0; run < 60; run += 1) {
      const q = query({
        words: randomInt(random, 2) === 0 ? [] : [randomItem(random, words)],
        shopIds: randomInt(random, 3) === 0 ? [randomItem(random, shops)] : [],
        ...(randomInt(random, 3) > 0 ? { filter: randomFilter(1) } : {}),
        limit: randomInt(random, 3) * 5,
      });
      const page = await backend.search(q);
      if (page.total > 0) nonEmpty += 1;
      for (const facet of page.facets) {
        const sum = facet.buckets.reduce((s, b) => s + b.count, 0);
        expect(sum, `${facet.facetName} of ${JSON.stringify(q)}`).toBe(page.total);
        expect(facet.buckets.length).toBeLessThanOrEqual(FACET_BUCKET_LIMIT);
        expect(new Set(facet.buckets.map((b) => `${b.value}|${b.otherValues ?? ''}`)).size).toBe(facet.buckets.length);
      }
    }
    expect(nonEmpty).toBeGreaterThan(20);
  });
});
