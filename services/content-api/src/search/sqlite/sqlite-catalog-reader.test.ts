import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@triad/db';
import { generateCatalog } from '../../demo/generate-catalog.js';
import type { ContentTables } from '../../migrations/content-tables.js';
import type { Article } from '../../model/article.js';
import { loadTestCatalog, TEST_SEED } from '../../test-support/content-test-app.js';
import type { SearchBackend } from '../search-backend.js';
import type { SearchQuery } from '../search-query.js';
import { SqliteCatalogReader } from './sqlite-catalog-reader.js';
import { openContentConnection, type SqliteConnection } from './sqlite-connection.js';

const ARTICLES = 80;
const catalog = generateCatalog({ articles: ARTICLES, seed: TEST_SEED });
const labtools = catalog.shops.find((s) => s.id === 'labtools')!;
const lab = [...catalog.articles()].filter((a) => a.shopId === 'labtools');
const query = (overrides: Partial<SearchQuery>): SearchQuery => ({
  words: [],
  shopIds: [],
  sort: [],
  limit: 1000,
  offset: 0,
  facets: [],
  ...overrides,
});
/** A word of the article's description, letters only, as the index keeps it. */
const wordOf = (a: Article) =>
  a.description
    .toLowerCase()
    .split(/[^a-z]+/)
    .find((w) => w.length >= 4)!;

describe('SQLite catalog reader after deltas', () => {
  let directory: string;
  let database: Database<ContentTables>;
  let backend: SearchBackend;
  let connection: SqliteConnection;
  let reader: SqliteCatalogReader;
  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'triad-reader-test-'));
    const file = path.join(directory, 'content.sqlite');
    database = openDatabase<ContentTables>({ sqliteFile: file });
    backend = await loadTestCatalog(database, ARTICLES);
    connection = openContentConnection(file, 'reader');
    reader = new SqliteCatalogReader(connection);
  });
  afterAll(async () => {
    connection?.close();
    await backend?.close();
    await database?.close();
    rmSync(directory, { recursive: true, force: true });
  });

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

  it('reads the text index again after a delta that changes words, and finds the new ones', async () => {
    const article = lab[3]!;
    // Asked (and kept) before the delta: a kept list would miss the article afterwards.
    const before = reader.search(query({ words: ['crucible'], matching: 'exact' }));
    expect(before.hits.map((h) => h.article.id)).not.toContain(article.id);
    const reads = reader.textIndexReads;
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
    expect(reader.textIndexReads).toBeGreaterThanOrEqual(reads + 3);
  });
});
