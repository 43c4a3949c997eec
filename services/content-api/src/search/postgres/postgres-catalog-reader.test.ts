import { afterAll, beforeAll, expect, it } from 'vitest';
import { describePostgresOnly } from '@triad/db/testing';
import { generateCatalog } from '../../demo/generate-catalog.js';
import { loadTestCatalog, TEST_SEED } from '../../test-support/content-test-app.js';
import { queryWith } from '../../test-support/search-test-store.js';
import type { ContentTables } from '../../migrations/content-tables.js';
import type { SearchBackend } from '../search-backend.js';
import { FACET_NAMES } from '../search-query.js';
import { searchSegments, type SegmentSearchOptions } from '../segments/segment-search.js';
import { PostgresCatalogReader } from './postgres-catalog-reader.js';
import { PostgresSearchBackend } from './postgres-search-backend.js';

const ARTICLES = 60;
const catalog = generateCatalog({ articles: ARTICLES, seed: TEST_SEED });
const office = catalog.shops.find((s) => s.id === 'office-direct')!;
const query = queryWith({ facets: [...FACET_NAMES] });

// The reader keeps matches and hit documents between searches; a change committed by another
// instance (its own reader, no change bus) must still show at the very next search.
describePostgresOnly<ContentTables>('PostgreSQL reader, matches and documents kept', (getDb) => {
  let writer: SearchBackend;
  let reading: PostgresSearchBackend;
  beforeAll(async () => {
    writer = await loadTestCatalog(getDb(), ARTICLES);
    reading = new PostgresSearchBackend(getDb());
  });
  afterAll(async () => {
    await writer?.close();
    await reading?.close();
  });

  it('shows a price delta of another instance in the hits of a search asked again', async () => {
    const blue = query({ words: ['blue'], shopIds: ['office-direct'], matching: 'default' });
    const first = await reading.search(blue);
    expect(await reading.search(blue)).toEqual(first);
    const hit = first.hits[0]!.article;
    const amount = { value: 12_345_678, decimalDigits: 2 };
    await writer.applyShopDelta({
      shop: office,
      changes: [{ kind: 'prices', articleId: hit.id, prices: { blockPrices: [{ lowerBound: 1, amount }] } }],
      hash: 'repriced-kept',
    });
    const after = await reading.search(blue);
    expect(after).toEqual(await writer.search(blue));
    const repriced = after.hits.find((h) => h.article.id === hit.id)!.article;
    expect(JSON.stringify(repriced)).toContain('12345678');
    expect(JSON.stringify(repriced)).not.toEqual(JSON.stringify(hit));
  });

  it('hands a search worker its matches over shared memory, so posting them copies nothing', async () => {
    const posted: SegmentSearchOptions[] = [];
    reading.searchOn({
      search: (options) => {
        posted.push(options);
        const pass = searchSegments(options);
        return Promise.resolve({ ...pass, hits: (descriptions) => Promise.resolve(pass.hits(descriptions)) });
      },
      close: () => Promise.resolve(),
    });
    try {
      for (const matching of ['exact', 'default'] as const)
        for (const words of [['blue'], ['bleu', 'pap']]) {
          const asked = query({ words, matching });
          expect(await reading.search(asked)).toEqual(await writer.search(asked));
        }
    } finally {
      reading.searchOn(undefined);
    }
    expect(posted.some((o) => o.classes !== undefined)).toBe(true);
    // Exact matching finds nothing for the typo.
    expect(posted.filter((o) => (o.matches?.length ?? 0) > 0)).toHaveLength(3);
    for (const { matches, classes } of posted) {
      expect(matches?.buffer).toBeInstanceOf(SharedArrayBuffer);
      if (classes) expect(classes.buffer).toBeInstanceOf(SharedArrayBuffer);
    }
  });

  it('shows a product delta of another instance in the matches of a search asked again', async () => {
    for (const matching of ['exact', 'default'] as const) {
      const blue = query({ words: ['blue'], shopIds: ['office-direct'], matching });
      const before = await reading.search(blue);
      expect(before.total).toBeGreaterThan(1);
      const gone = before.hits[0]!.article.id;
      await writer.applyShopDelta({ shop: office, changes: [{ kind: 'delete', articleId: gone }], hash: matching });
      const after = await reading.search(blue);
      expect(after).toEqual(await writer.search(blue));
      expect(after.total).toBe(before.total - 1);
      expect(after.hits.map((h) => h.article.id)).not.toContain(gone);
    }
  });

  it('answers a search over every shop whose own kept postings drop each other', async () => {
    // One search at a time, every shop: the lists kept for one shop's word are dropped as the
    // next shop's are kept (a catalog whose lists outgrow the cache), also lists the search
    // found kept when it planned (10 M articles answered 500 that way).
    const small = new PostgresSearchBackend(getDb(), new PostgresCatalogReader({ postingsCachePositions: 1 }));
    try {
      for (const matching of ['exact', 'default'] as const)
        for (const words of [['blue'], ['paper'], ['blue', 'paper']]) {
          const asked = query({ words, matching });
          const expected = await writer.search(asked);
          for (let round = 0; round < 3; round += 1) expect(await small.search(asked)).toEqual(expected);
        }
    } finally {
      await small.close();
    }
  });

  it('answers concurrent searches whose kept postings other searches drop meanwhile', async () => {
    // A cache of one position: each list a search keeps drops the others, also those a
    // concurrent search planned to use while it waited for the postings it reads.
    const small = new PostgresSearchBackend(getDb(), new PostgresCatalogReader({ postingsCachePositions: 1 }));
    try {
      const searches = ['blue', 'paper', 'black', 'pen'].flatMap((word) =>
        (['exact', 'default'] as const).flatMap((matching) => [
          query({ words: [word], matching }),
          query({ words: [word, 'blue'], matching }),
          query({ words: ['blue', word], matching }),
        ]),
      );
      const expected = await Promise.all(searches.map((q) => writer.search(q)));
      for (let round = 0; round < 4; round += 1)
        expect(await Promise.all(searches.map((q) => small.search(q)))).toEqual(expected);
      expect(expected.some((page) => page.total > 0)).toBe(true);
    } finally {
      await small.close();
    }
  });

  it('ranks the match classes of every shop as a fresh reader does after a delta reloaded one shop', async () => {
    // A typo and a prefix over every shop: hits of several match classes, from several segments.
    const typed = query({ words: ['bleu', 'pap'], limit: 40, matching: 'default' });
    // The first shop loaded: its segment reloaded after the delta comes last in the reader's list.
    const first = catalog.shops[0]!;
    const articleId = [...catalog.articles()].find((a) => a.shopId === first.id)!.id;
    await reading.search(typed);
    await writer.applyShopDelta({
      shop: first,
      changes: [
        {
          kind: 'prices',
          articleId,
          prices: { blockPrices: [{ lowerBound: 1, amount: { value: 4_242, decimalDigits: 2 } }] },
        },
      ],
      hash: 'reloaded-first-slot',
    });
    const fresh = new PostgresSearchBackend(getDb());
    try {
      const expected = await fresh.search(typed);
      expect(expected.hits.length).toBeGreaterThan(1);
      const after = await reading.search(typed);
      expect(after.hits.map((h) => [h.article.id, h.score])).toEqual(expected.hits.map((h) => [h.article.id, h.score]));
      expect(after.facets).toEqual(expected.facets);
    } finally {
      await fresh.close();
    }
  });
});
