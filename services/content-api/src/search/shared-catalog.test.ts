import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { describeEachDatabase, describePostgresOnly } from '@triad/db/testing';
import { generateCatalog } from '../demo/generate-catalog.js';
import { contentStorageFor } from '../content-api-core.js';
import { loadTestCatalog, TEST_SEED } from '../test-support/content-test-app.js';
import { queryWith } from '../test-support/search-test-store.js';
import type { ContentTables } from '../migrations/content-tables.js';
import type { Article } from '../model/article.js';
import { PostgresCatalogReader } from './postgres/postgres-catalog-reader.js';
import { PostgresSearchBackend } from './postgres/postgres-search-backend.js';
import type { SearchBackend } from './search-backend.js';
import { FACET_NAMES } from './search-query.js';

const ARTICLES = 60;
const catalog = generateCatalog({ articles: ARTICLES, seed: TEST_SEED });
const all = [...catalog.articles()];
const labtools = catalog.shops.find((s) => s.id === 'labtools')!;
const query = queryWith({ limit: 5, facets: [...FACET_NAMES] });

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

// PostgreSQL: what another instance changed is loaded ahead of searches, and only what changed.
describePostgresOnly<ContentTables>('one catalog, two instances, loaded ahead', (getDb) => {
  let writer: SearchBackend;
  let reader: PostgresCatalogReader;
  let watching: PostgresSearchBackend;
  beforeAll(async () => {
    writer = await loadTestCatalog(getDb(), ARTICLES);
    reader = new PostgresCatalogReader();
    watching = new PostgresSearchBackend(getDb(), reader);
  });
  afterAll(async () => {
    await writer?.close();
    await watching?.close();
  });
  const generation = async () =>
    (
      await sql<{ value: string }>`
        select meta_value as value from content_meta where meta_key = 'catalog_generation'`.execute(getDb().db)
    ).rows[0]!.value;
  const until = async (check: () => Promise<boolean>) => {
    for (let waited = 0; !(await check()); waited += 20) {
      if (waited > 5000) throw new Error('not loaded within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('loads at start and after every announced change, without a search', async () => {
    const warnings: object[] = [];
    await watching.keepLoaded({ warn: (object) => warnings.push(object) });
    await until(async () => reader.loadedGeneration === (await generation()));
    // The shops' vocabularies too: the first default-matching search reads none.
    const shops = new Set(all.map((a) => a.shopId)).size;
    await until(() => Promise.resolve(reader.vocabularyLoads.read === shops));
    await watching.search(query({ words: ['blu'], matching: 'default' }));
    expect(reader.vocabularyLoads.read).toBe(shops);
    const emptied = { shop: labtools, articles: [], hash: 'emptied-ahead' };
    await writer.replaceShopCatalog(emptied);
    const changed = await generation();
    await until(() => Promise.resolve(reader.loadedGeneration === changed));
    // Loaded means searchable: the search finds it in use and agrees with the writer.
    expect(await watching.search(query({ words: ['blue'] }))).toEqual(await writer.search(query({ words: ['blue'] })));
    expect(warnings).toEqual([]);
  });

  it('after a price delta reads only the price chunks again, and keeps the postings', async () => {
    const db = getDb().db;
    const office = all.filter((a) => a.shopId === 'office-direct');
    await watching.search(query({ words: ['blue'] }));
    const chunks = async () =>
      (
        await sql<{ name: string; version: string }>`
          select c.name, c.version::text as version from content_segment_columns c
          join content_segments s on s.slot = c.slot where s.shop_id = 'office-direct'
          order by c.name, c.chunk`.execute(db)
      ).rows;
    const postings = async () =>
      (
        await sql<{ generation: string }>`
          select postings_generation as generation from content_segments where shop_id = 'office-direct'`.execute(db)
      ).rows[0]!.generation;
    const [chunksBefore, postingsBefore] = [await chunks(), await postings()];
    const how: string[] = [];
    await writer.applyShopDelta({
      shop: catalog.shops.find((s) => s.id === 'office-direct')!,
      changes: office.slice(0, 3).map((a) => ({
        kind: 'prices' as const,
        articleId: a.id,
        prices: { blockPrices: [{ lowerBound: 1, amount: { value: 99_999_999, decimalDigits: 2 } }] },
      })),
      hash: 'repriced',
      onSegment: (segment) => how.push(segment),
    });
    expect(how).toEqual(['prices']);
    const chunksAfter = await chunks();
    const changedNames = chunksAfter.filter((c, i) => c.version !== chunksBefore[i]!.version).map((c) => c.name);
    expect(new Set(changedNames)).toEqual(new Set(['price', 'priceInclSpecialTaxes']));
    expect(await postings()).toBe(postingsBefore);
    const byPrice = query({ shopIds: ['office-direct'], sort: [{ field: 'price', descending: true }], limit: 3 });
    const changed = await generation();
    await until(() => Promise.resolve(reader.loadedGeneration === changed));
    const page = await watching.search(byPrice);
    expect(page.hits.map((h) => h.article.id).sort()).toEqual(
      office
        .slice(0, 3)
        .map((a) => a.id)
        .sort(),
    );
    // A reader loading everything afresh sees the same.
    const fresh = new PostgresSearchBackend(getDb());
    try {
      expect(page).toEqual(await fresh.search(byPrice));
      expect(await watching.search(query({ words: ['blue'] }))).toEqual(await fresh.search(query({ words: ['blue'] })));
    } finally {
      await fresh.close();
    }
  });

  it('with keepLoaded, has loaded its own delta, vocabulary patched, when the delta settles', async () => {
    const own = new PostgresCatalogReader();
    const backend = new PostgresSearchBackend(getDb(), own);
    try {
      await backend.keepLoaded({ warn: (object) => expect.fail(JSON.stringify(object)) });
      const shops = new Set(all.map((a) => a.shopId)).size;
      await until(() => Promise.resolve(own.vocabularyLoads.read >= shops - 1));
      const office = all.filter((a) => a.shopId === 'office-direct');
      const renamed: Article = {
        ...office[4]!,
        description: 'quokka ledger',
        descriptions: [{ lang: 'en', value: 'quokka ledger' }],
      };
      const loads = own.vocabularyLoads;
      await backend.applyShopDelta({
        shop: catalog.shops.find((s) => s.id === 'office-direct')!,
        changes: [{ kind: 'upsert', article: renamed }],
        hash: 'own-delta',
      });
      // At once: no announcement waited for, no search made.
      expect(own.loadedGeneration).toBe(await generation());
      expect(own.vocabularyLoads).toEqual({ read: loads.read, patched: loads.patched + 1 });
      const found = await backend.search(query({ words: ['quokk'], matching: 'default' }));
      expect(found.hits.map((h) => h.article.id)).toEqual([renamed.id]);
      expect(own.vocabularyLoads).toEqual({ read: loads.read, patched: loads.patched + 1 });
    } finally {
      await backend.close();
    }
  });
});
