import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { describeEachDatabase } from '@triad/db/testing';
import { generateCatalog } from '../demo/generate-catalog.js';
import type { Article } from '../model/article.js';
import type { ContentTables } from '../migrations/content-tables.js';
import { loadTestCatalog, TEST_SEED } from '../test-support/content-test-app.js';
import type { SearchBackend } from './search-backend.js';
import { searchWords } from './search-query.js';

const ARTICLES = 80;
const catalog = generateCatalog({ articles: ARTICLES, seed: TEST_SEED });
const all = [...catalog.articles()];
const labtools = catalog.shops.find((s) => s.id === 'labtools')!;
const lab = all.filter((a) => a.shopId === 'labtools');
const named = (article: Article, description: string): Article => ({
  ...article,
  description,
  descriptions: [{ lang: 'en', value: description }],
});

describeEachDatabase<ContentTables>('suggestions of one shop after deltas', (getDb) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    backend = await loadTestCatalog(getDb(), ARTICLES);
  });
  afterAll(async () => {
    await backend?.close();
  });

  /** The shop's articles holding `term`, as the search counts them. */
  const hits = async (term: string, shopId = 'labtools') =>
    (
      await backend.search({
        words: [term],
        shopIds: [shopId],
        sort: [],
        limit: 0,
        offset: 0,
        facets: [],
        matching: 'exact',
      })
    ).total;
  /** Asserts every suggestion for each text in `shopId` carries the search's count; returns the suggested words. */
  const suggestedWords = async (texts: readonly string[], shopId = 'labtools') => {
    const words = new Set<string>();
    for (const q of texts) {
      const page = await backend.suggest({ shopIds: [shopId], q, limit: 20 });
      for (const s of [...page.completions, ...page.corrections]) {
        expect(s.hits, `${q} -> ${s.text} in ${shopId}`).toBe(await hits(s.text, shopId));
        expect(s.hits).toBeGreaterThan(0);
        words.add(s.text);
      }
    }
    return words;
  };
  const prefixes = () => [
    ...new Set(
      all
        .filter((a) => a.shopId === 'labtools')
        .flatMap((a) => searchWords(a.description))
        .filter((w) => /^[a-z]{3,}$/.test(w))
        .map((w) => w.slice(0, 2)),
    ),
  ];

  it('counts what the search finds after articles are added, changed and deleted', async () => {
    expect((await suggestedWords(prefixes())).size).toBeGreaterThan(5);
    await backend.applyShopDelta({
      shop: labtools,
      hash: 'suggest-delta-1',
      changes: [
        {
          kind: 'upsert',
          article: named({ ...lab[0]!, id: 'labtools:SUG-1', supplierArticleId: 'SUG-1' }, 'vanadium crucible'),
        },
        {
          kind: 'upsert',
          article: named({ ...lab[0]!, id: 'labtools:SUG-2', supplierArticleId: 'SUG-2' }, 'vanadium tongs'),
        },
        { kind: 'upsert', article: named(lab[1]!, 'vanadium osmium tongs') },
        { kind: 'delete', articleId: lab[2]!.id },
        {
          kind: 'upsert',
          article: named({ ...lab[0]!, id: 'labtools:SUG-3', supplierArticleId: 'SUG-3' }, 'xenon lamp'),
        },
        { kind: 'delete', articleId: 'labtools:SUG-3' },
      ],
    });
    const after = await suggestedWords([...prefixes(), 'va', 'vanad', 'os', 'xe', 'vanadum']);
    expect(after).toContain('vanadium');
    expect(after).toContain('osmium');
    expect(after).not.toContain('xenon');
    const vanadium = await backend.suggest({ shopIds: ['labtools'], q: 'vana', limit: 5 });
    expect(vanadium.completions).toContainEqual({ text: 'vanadium', hits: 3 });
    // Words of another shop are not counted for this one.
    expect((await backend.suggest({ shopIds: ['office-direct'], q: 'vana', limit: 5 })).completions).toEqual([]);

    await backend.applyShopDelta({
      shop: labtools,
      hash: 'suggest-delta-2',
      changes: [
        { kind: 'delete', articleId: 'labtools:SUG-1' },
        { kind: 'upsert', article: named(lab[1]!, 'osmium tongs') },
      ],
    });
    expect((await backend.suggest({ shopIds: ['labtools'], q: 'vana', limit: 5 })).completions).toContainEqual({
      text: 'vanadium',
      hits: 1,
    });
    await suggestedWords([...prefixes(), 'va', 'os']);
  });

  it('keeps the counts through a delta of prices only', async () => {
    const before = await backend.suggest({ shopIds: ['labtools'], q: 'va', limit: 20 });
    await backend.applyShopDelta({
      shop: labtools,
      hash: 'suggest-delta-prices',
      changes: [
        {
          kind: 'prices',
          articleId: lab[3]!.id,
          prices: { blockPrices: [{ lowerBound: 1, amount: { value: 4200, decimalDigits: 2 } }] },
        },
      ],
    });
    expect(await backend.suggest({ shopIds: ['labtools'], q: 'va', limit: 20 })).toEqual(before);
    await suggestedWords(['va', 'os', ...prefixes()]);
  });

  it('counts right for a shop stored without its words (before migration 0016)', async () => {
    const db = getDb();
    if (db.dialect !== 'sqlite') return; // PostgreSQL keeps its words in the postings buckets.
    await sql`delete from content_segment_words`.execute(db.db);
    // A delta on a segment without stored words leaves it without; suggestions count with FTS5.
    await backend.applyShopDelta({
      shop: labtools,
      hash: 'suggest-delta-unstored',
      changes: [{ kind: 'upsert', article: named(lab[4]!, 'vanadium foil') }],
    });
    const rows = await sql<{ n: number }>`select count(*) as n from content_segment_words`.execute(db.db);
    expect(Number(rows.rows[0]!.n)).toBe(0);
    expect((await backend.suggest({ shopIds: ['labtools'], q: 'vana', limit: 5 })).completions).toContainEqual({
      text: 'vanadium',
      hits: 2,
    });
    await suggestedWords(['va', 'os', ...prefixes()]);
  });
});
