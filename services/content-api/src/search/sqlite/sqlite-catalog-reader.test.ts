import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalog } from '../../demo/generate-catalog.js';
import type { Article } from '../../model/article.js';
import { TEST_SEED } from '../../test-support/content-test-app.js';
import { openSqliteTestStore, queryWith, type SqliteTestStore } from '../../test-support/search-test-store.js';
import type { SearchBackend } from '../search-backend.js';
import type { SearchQuery } from '../search-query.js';
import { searchSegments, type SegmentSearchOptions } from '../segments/segment-search.js';
import type { SegmentSearcher } from '../workers/search-worker-pool.js';
import { SqliteCatalogReader } from './sqlite-catalog-reader.js';
import { openContentConnection } from './sqlite-connection.js';
import { SQLITE_WATCH_MS, SqliteSearchBackend } from './sqlite-search-backend.js';

const ARTICLES = 80;
const catalog = generateCatalog({ articles: ARTICLES, seed: TEST_SEED });
const labtools = catalog.shops.find((s) => s.id === 'labtools')!;
const lab = [...catalog.articles()].filter((a) => a.shopId === 'labtools');
const query = queryWith({ limit: 1000 });
/** The words of the article's description of letters a to z only (at least four), as the index keeps them. */
const wordsOf = (a: Article) =>
  a.description
    .toLowerCase()
    .split(' ')
    .filter((w) => /^[a-z]{4,}$/.test(w));
/** A word of the article's description, letters only, as the index keeps it. */
const wordOf = (a: Article) =>
  a.description
    .toLowerCase()
    .split(/[^a-z]+/)
    .find((w) => w.length >= 4)!;

describe('SQLite catalog reader after deltas', () => {
  let store: SqliteTestStore;
  let backend: SearchBackend;
  let reader: SqliteCatalogReader;
  beforeAll(async () => {
    store = await openSqliteTestStore(ARTICLES);
    ({ backend, reader } = store);
  });
  afterAll(() => store?.close());

  it('keeps the match lists and the vocabulary over a price delta and shows the new price', async () => {
    const article = lab[2]!;
    const word = wordOf(article);
    for (const matching of ['exact', 'default'] as const) reader.search(query({ words: [word], matching }));
    const reads = reader.textIndexReads;
    const before = reader.search(query({ words: [word], matching: 'default' }));
    expect(reader.textIndexReads).toBe(reads);

    await backend.applyShopDelta({
      shop: labtools,
      changes: [
        {
          kind: 'prices',
          articleId: article.id,
          prices: { blockPrices: [{ lowerBound: 1, amount: { value: 1, decimalDigits: 4 } }] },
        },
      ],
      hash: 'reader-prices',
    });
    const exact = reader.search(
      query({ words: [word], matching: 'exact', sort: [{ field: 'price', descending: false }] }),
    );
    const fuzzy = reader.search(query({ words: [word], matching: 'default' }));
    expect(reader.textIndexReads).toBe(reads);
    expect(exact.hits[0]?.article.id).toBe(article.id);
    expect(exact.hits[0]?.article.blockPrices).toEqual([{ lowerBound: 1, amount: { value: 1, decimalDigits: 4 } }]);
    expect(fuzzy.total).toBe(before.total);
    expect(fuzzy.hits.find((h) => h.article.id === article.id)?.article.blockPrices[0]?.amount.value).toBe(1);
  });

  it('answers several words asked again as a fresh reader does, and sees new words after a delta', async () => {
    const other = openContentConnection(store.file, 'reader');
    try {
      const answer = (r: SqliteCatalogReader, words: string[]) => {
        const result = r.search(query({ words, matching: 'default', facets: ['businessShopId', 'manufacturerName'] }));
        return { ...result, hits: result.hits.map((h) => [h.article.id, h.score]) };
      };
      const [paper, blue] = wordsOf(lab[0]!) as [string, string];
      const [brand, folder] = wordsOf(lab[1]!) as [string, string];
      // A last word matches as a prefix too, a long one with typos: classes other than exact.
      for (const words of [
        [paper, blue.slice(0, 3)],
        [folder, folder],
        [brand, 'zzzz', paper],
        [`${paper.slice(0, -1)}x`, blue],
        [blue, folder],
      ]) {
        const once = answer(reader, words);
        expect(once.total > 0).toBe(!words.includes('zzzz'));
        const again = answer(reader, words);
        expect(again).toEqual(once);
        expect(again).toEqual(answer(new SqliteCatalogReader(other), words));
      }
    } finally {
      other.close();
    }
    // Kept before the delta (no article has both): a kept intersection would miss the article afterwards.
    expect(reader.search(query({ words: ['tantalum', 'beaker'], matching: 'default' })).total).toBe(0);
    const article = lab[4]!;
    const description = 'tantalum beaker';
    await backend.applyShopDelta({
      shop: labtools,
      changes: [
        { kind: 'upsert', article: { ...article, description, descriptions: [{ lang: 'en', value: description }] } },
      ],
      hash: 'reader-two-words',
    });
    const after = reader.search(query({ words: ['tantalum', 'beaker'], matching: 'default' }));
    expect(after.hits.map((h) => h.article.id)).toEqual([article.id]);
    expect([...(after.matched?.words ?? [])].sort()).toEqual(['beaker', 'tantalum']);
  });

  it('hands a search worker the kept matches over shared memory, so posting them copies nothing', async () => {
    const posted: SegmentSearchOptions[] = [];
    const searcher: SegmentSearcher = {
      search: (options) => {
        posted.push(options);
        const pass = searchSegments(options);
        return Promise.resolve({ ...pass, hits: (descriptions) => Promise.resolve(pass.hits(descriptions)) });
      },
      close: () => Promise.resolve(),
    };
    const [paper, blue] = wordsOf(lab[0]!) as [string, string];
    const [brand, folder] = wordsOf(lab[1]!) as [string, string];
    for (const [words, matching] of [
      [[paper], 'default'],
      [[blue.slice(0, 3)], 'default'],
      [[paper, blue.slice(0, 3)], 'default'],
      [[brand, folder], 'exact'],
    ] as const) {
      const found = await reader.searchOn(searcher, query({ words: [...words], matching }));
      expect(found).toEqual(reader.search(query({ words: [...words], matching })));
    }
    expect(posted.some((o) => o.classes !== undefined)).toBe(true);
    for (const { matches, classes } of posted) {
      expect(matches?.length).toBeGreaterThan(0);
      expect(matches?.buffer).toBeInstanceOf(SharedArrayBuffer);
      if (classes) expect(classes.buffer).toBeInstanceOf(SharedArrayBuffer);
    }
  });

  it('reads the text index again after a delta that changes words, and finds the new ones', async () => {
    const article = lab[3]!;
    // Asked (and kept) before the delta: a kept list would miss the article afterwards.
    const before = reader.search(query({ words: ['crucible'], matching: 'exact' }));
    expect(before.hits.map((h) => h.article.id)).not.toContain(article.id);
    const reads = reader.textIndexReads;
    const builds = reader.vocabularyBuilds;
    const description = 'zirconium crucible';
    await backend.applyShopDelta({
      shop: labtools,
      changes: [
        { kind: 'upsert', article: { ...article, description, descriptions: [{ lang: 'en', value: description }] } },
      ],
      hash: 'reader-words',
    });
    const after = reader.search(query({ words: ['crucible'], matching: 'exact' }));
    expect(after.hits.map((h) => h.article.id)).toContain(article.id);
    expect(after.total).toBe(before.total + 1);
    // The last word as a prefix: the vocabulary was read again and holds the new word.
    const prefixed = reader.search(query({ words: ['zirconi'], matching: 'default' }));
    expect(prefixed.hits.map((h) => h.article.id)).toEqual([article.id]);
    // The two words' lists; the vocabulary is summed from the segments' stored words.
    expect(reader.textIndexReads).toBeGreaterThanOrEqual(reads + 2);
    expect(reader.vocabularyBuilds).toBeGreaterThanOrEqual(builds + 1);
  });

  it('loads the catalog ahead of searches, so the first search reads no column and builds no vocabulary', async () => {
    const other = openContentConnection(store.file, 'reader');
    try {
      const fresh = new SqliteCatalogReader(other);
      fresh.preload();
      expect(fresh.chunkReads).toBeGreaterThan(0);
      expect(fresh.vocabularyBuilds).toBe(1);
      const reads = fresh.chunkReads;
      const asked = query({ words: ['crucible', 'zirconi'], matching: 'default', facets: ['manufacturerName'] });
      const found = fresh.search(asked);
      expect(found.total).toBeGreaterThan(0);
      expect(found).toEqual(reader.search(asked));
      expect([fresh.chunkReads, fresh.vocabularyBuilds]).toEqual([reads, 1]);
    } finally {
      other.close();
    }
    // A store that cannot be read is logged, not thrown: the first search loads it then.
    const closed = new SqliteSearchBackend(store.database);
    await closed.close();
    const warnings: string[] = [];
    await closed.keepLoaded({ warn: (_object, message) => warnings.push(message) });
    expect(warnings).toEqual([expect.stringContaining('the first search loads it')]);
  });

  it("with keepLoaded, loads its own writes before they settle and another process's within the watch", async () => {
    const watching = new SqliteSearchBackend(store.database);
    try {
      await watching.keepLoaded({ warn: (_object, message) => expect.fail(message) });
      expect(watching.loadedHash).toBe(await backend.currentHash());
      const renamed = (description: string, hash: string) => ({
        shop: labtools,
        changes: [
          {
            kind: 'upsert' as const,
            article: { ...lab[6]!, description, descriptions: [{ lang: 'en' as const, value: description }] },
          },
        ],
        hash,
      });
      // Another connection's commit (as another process's): no search asks, the watch loads it.
      await backend.applyShopDelta(renamed('watched tungsten ladle', 'watched-elsewhere'));
      expect(watching.loadedHash).not.toBe('watched-elsewhere');
      for (let waited = 0; watching.loadedHash !== 'watched-elsewhere'; waited += 25) {
        if (waited > 20 * SQLITE_WATCH_MS) expect.fail('the commit of another connection was not loaded');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      // Its own commit: loaded when the delta's promise settles.
      await watching.applyShopDelta(renamed('ahead molybdenum ladle', 'loaded-ahead'));
      expect(watching.loadedHash).toBe('loaded-ahead');
      const found = await watching.search(query({ words: ['molybdenum'], matching: 'exact' }));
      expect(found.hits.map((h) => h.article.id)).toEqual([lab[6]!.id]);
    } finally {
      await watching.close();
    }
  });

  it('sums the vocabulary from the stored words to what the text index counts, after every kind of delta', async () => {
    const fresh = () => {
      const connection = openContentConnection(store.file, 'reader');
      try {
        return new SqliteCatalogReader(connection).vocabularies();
      } finally {
        connection.close();
      }
    };
    const same = () => {
      const { segments, textIndex } = fresh();
      expect(segments).toBeDefined();
      expect(textIndex.size).toBeGreaterThan(50);
      expect([...segments!].sort()).toEqual([...textIndex].sort());
      return textIndex;
    };
    const before = same();
    const [changed, gone] = [lab[5]!, lab[6]!];
    const description = 'grüne étiquette zirconiumoxid m12 schraube';
    await backend.applyShopDelta({
      shop: labtools,
      changes: [
        { kind: 'upsert', article: { ...changed, description, descriptions: [{ lang: 'de', value: description }] } },
        {
          kind: 'upsert',
          article: {
            ...changed,
            id: `${changed.id}-NEW`,
            description,
            descriptions: [{ lang: 'de', value: description }],
          },
        },
        { kind: 'delete', articleId: gone.id },
      ],
      hash: 'reader-vocabulary',
    });
    const after = same();
    expect(after.get('zirconiumoxid')).toBe(2);
    expect(after.get('etiquette') ?? after.get('étiquette')).toBeGreaterThan(0);
    expect(after).not.toEqual(before);
    // The stored words of a segment missing (stored before migration 0016): none summed, the text index read.
    const writer = openContentConnection(store.file, 'writer');
    try {
      writer.prepare('delete from content_segment_words where slot = (select min(slot) from content_segments)').run();
    } finally {
      writer.close();
    }
    const { segments, textIndex } = fresh();
    expect(segments).toBeUndefined();
    expect(textIndex).toEqual(after);
  });
});

describe('SQLite catalog reader: chunks a delta leaves', () => {
  let store: SqliteTestStore;
  let backend: SearchBackend;
  let reader: SqliteCatalogReader;
  /** Each article once, sorted by price, with every facet: all the columns show in it. */
  const everything = (sort: SearchQuery['sort']) =>
    query({ sort, facets: ['businessShopId', 'manufacturerName', 'UNSPSC-7', 'ECLASS', 'ETIM'] });
  const SORTS: SearchQuery['sort'][] = [
    [{ field: 'price', descending: false }],
    [{ field: 'description', descending: true }],
    [{ field: 'id', descending: false }],
    [{ field: 'manufacturerName', descending: false }],
  ];
  const page = (r: SqliteCatalogReader, sort: SearchQuery['sort']) => {
    const result = r.search(everything(sort));
    return { total: result.total, facets: result.facets, hits: result.hits.map((h) => [h.article.id, h.article]) };
  };
  /** What a reader that loaded nothing before sees: the patched reader must see the same. */
  const expectAsFresh = () => {
    const other = openContentConnection(store.file, 'reader');
    try {
      const fresh = new SqliteCatalogReader(other);
      for (const sort of SORTS) expect(page(reader, sort)).toEqual(page(fresh, sort));
    } finally {
      other.close();
    }
  };
  const priceDelta = (hash: string, articles: readonly Article[], value: number) =>
    backend.applyShopDelta({
      shop: labtools,
      changes: articles.map((a) => ({
        kind: 'prices' as const,
        articleId: a.id,
        prices: { blockPrices: [{ lowerBound: 1, amount: { value, decimalDigits: 2 } }] },
      })),
      hash,
    });

  beforeAll(async () => {
    store = await openSqliteTestStore(ARTICLES);
    ({ backend, reader } = store);
  });
  afterAll(() => store?.close());

  it('reads only the price chunks again after a price delta, and sees every new price', async () => {
    reader.search(everything([]));
    // A full import gives its chunks a version: the first delta after it reads the changed ones only.
    await priceDelta('chunks-1', lab.slice(0, 2), 123);
    reader.search(everything([]));
    expectAsFresh();
    const reads = reader.chunkReads;
    await priceDelta('chunks-2', lab.slice(1, 5), 7);
    const cheapest = reader.search(everything(SORTS[0]!));
    // One chunk per column in a catalog this small: the two price columns.
    expect(reader.chunkReads).toBe(reads + 2);
    expect(
      cheapest.hits
        .slice(0, 4)
        .map((h) => h.article.id)
        .sort(),
    ).toEqual(
      lab
        .slice(1, 5)
        .map((a) => a.id)
        .sort(),
    );
    expect(cheapest.hits[0]?.article.blockPrices[0]?.amount).toEqual({ value: 7, decimalDigits: 2 });
    expectAsFresh();
  });

  it('reads the changed columns again after a product delta, and shows what a fresh reader shows', async () => {
    reader.search(everything([]));
    const reads = reader.chunkReads;
    const [updated, deleted] = [lab[6]!, lab[7]!];
    const description = '!first of all';
    await backend.applyShopDelta({
      shop: labtools,
      changes: [
        { kind: 'upsert', article: { ...updated, description, descriptions: [{ lang: 'en', value: description }] } },
        { kind: 'delete', articleId: deleted.id },
        { kind: 'upsert', article: { ...lab[8]!, id: 'labtools:chunks-new', manufacturerName: 'Chunkworks' } },
      ],
      hash: 'chunks-3',
    });
    const after = reader.search(query({ shopIds: ['labtools'], sort: [{ field: 'description', descending: false }] }));
    expect(reader.chunkReads).toBeGreaterThan(reads);
    expect(after.hits[0]?.article.id).toBe(updated.id);
    expect(after.hits.map((h) => h.article.id)).toContain('labtools:chunks-new');
    expect(after.hits.map((h) => h.article.id)).not.toContain(deleted.id);
    expectAsFresh();
  });

  it('reads nothing again after a delta that failed before its commit', async () => {
    const before = page(reader, SORTS[0]!);
    const reads = reader.chunkReads;
    await expect(
      backend.applyShopDelta({
        shop: labtools,
        changes: [{ kind: 'delete', articleId: lab[9]!.id }],
        hash: 'chunks-failed',
        beforeCommit: () => {
          throw new Error('crash before the commit');
        },
      }),
    ).rejects.toThrow('crash before the commit');
    expect(page(reader, SORTS[0]!)).toEqual(before);
    expect(reader.chunkReads).toBe(reads);
    expectAsFresh();
  });

  it('reads every chunk again after a full import of the shop', async () => {
    reader.search(everything([]));
    const reads = reader.chunkReads;
    await backend.replaceShopCatalog({ shop: labtools, articles: lab.slice(0, 20), hash: 'chunks-full' });
    const after = reader.search(everything([]));
    expect(after.hits.filter((h) => h.article.shopId === 'labtools')).toHaveLength(20);
    expect(reader.chunkReads).toBeGreaterThanOrEqual(reads + 9);
    expectAsFresh();
  });
});
