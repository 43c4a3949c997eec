import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalog } from '../../demo/generate-catalog.js';
import type { Article } from '../../model/article.js';
import { TEST_SEED } from '../../test-support/content-test-app.js';
import { openSqliteTestStore, queryWith, type SqliteTestStore } from '../../test-support/search-test-store.js';
import type { CatalogChange } from '../search-backend.js';
import { FACET_NAMES, type SearchPage, type SearchQuery } from '../search-query.js';
import { facetCountings } from '../segments/segment.js';
import { SqliteSearchBackend } from './sqlite-search-backend.js';

const ARTICLES = 120;
const catalog = generateCatalog({ articles: ARTICLES, seed: TEST_SEED });
const all = [...catalog.articles()];
const labtools = catalog.shops.find((s) => s.id === 'labtools')!;
const lab = all.filter((a) => a.shopId === 'labtools');
const query = queryWith({ limit: 1000, facets: [...FACET_NAMES] });
/** A word of the article's description, letters only, as the index keeps it. */
const wordOf = (a: Article) =>
  a.description
    .toLowerCase()
    .split(/[^a-z]+/)
    .find((w) => w.length >= 4)!;

/** The last word of the article's supplier id, as the index keeps it (ids hold digits). */
const idWord = (a: Article) =>
  a.supplierArticleId
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .pop()!;

const blockPrice = (value: number) => ({ blockPrices: [{ lowerBound: 1, amount: { value, decimalDigits: 2 } }] });
/** Reprices every third article of the shop, cheaper and dearer ones alike. */
const repriced = lab.filter((_, i) => i % 3 === 0).map((a, i) => ({ article: a, prices: blockPrice(50 + 997 * i) }));
const updated: Article = {
  ...lab[1]!,
  description: 'aardvark crucible',
  descriptions: [{ lang: 'en', value: 'aardvark crucible' }],
};
const deleted = lab[2]!;
const added: Article = {
  ...lab[4]!,
  id: 'labtools:FRESH-1',
  supplierArticleId: 'FRESH-1',
  manufacturerName: 'Freshwerk',
  description: 'zirconium beaker',
  descriptions: [{ lang: 'en', value: 'zirconium beaker' }],
};

/**
 * Searches that show every column of the segments and every kept derivation: word matches
 * (exact, default, prefix), no words (whole-shop facet counts), filters (kept positions) with
 * and without prices, each sort.
 */
function searches(): SearchQuery[] {
  // With the words the updated and the deleted article held before: lists that lose them.
  const words = [wordOf(lab[0]!), wordOf(lab[5]!), 'crucible', 'zirconium', 'beaker', wordOf(lab[1]!), wordOf(lab[2]!)];
  // Words with digits match as typed and, last, as a prefix (the text index's own prefix query).
  const digits = ['a4', 'fresh', added.supplierArticleId.toLowerCase().slice(0, 3), idWord(lab[3]!)];
  const maker = {
    type: 'ExactStringMatchFilter',
    filterName: 'manufacturerName',
    value: lab.find((a) => a.manufacturerName)!.manufacturerName!,
  } as const;
  const cheap = {
    type: 'DecimalRangeFilter',
    filterName: 'pricePerMinimumOrderQuantity',
    upperBound: { value: 2000, decimalDigits: 2 },
  } as const;
  return [
    ...words.flatMap((w) => [
      query({ words: [w], matching: 'exact' }),
      query({ words: [w], matching: 'default' }),
      query({ words: [w.slice(0, 4)], matching: 'default' }),
    ]),
    query({ words: [words[0]!, words[1]!], matching: 'default' }),
    ...digits.flatMap((w) => [query({ words: [w], matching: 'exact' }), query({ words: [w], matching: 'default' })]),
    query({ words: [words[2]!, 'a4'], matching: 'default' }),
    query({ words: ['zirconium', 'beaker'], matching: 'exact' }),
    query({}),
    query({ shopIds: ['labtools'] }),
    query({ filter: maker }),
    query({ filter: cheap }),
    query({ filter: { type: 'Or', operands: [maker, cheap] } }),
    ...(['price', 'description', 'id', 'manufacturerName'] as const).flatMap((field) => [
      query({ sort: [{ field, descending: false }] }),
      query({ sort: [{ field, descending: true }], filter: cheap, offset: 3, limit: 17 }),
    ]),
  ];
}

/** Everything a reply says, the articles whole. */
async function replies(backend: { search(q: SearchQuery): SearchPage | Promise<SearchPage> }) {
  const out = [];
  for (const q of searches()) {
    const page = await backend.search(q);
    out.push({ q, total: page.total, facets: page.facets, hits: page.hits, matched: page.matched });
  }
  return out;
}

describe('SQLite: searches after deltas answer as a store imported fresh with the final catalog', () => {
  let changed: SqliteTestStore;
  let fresh: SqliteTestStore | undefined;
  beforeAll(async () => {
    changed = await openSqliteTestStore(ARTICLES);
  });
  afterAll(async () => {
    await changed?.close();
    await fresh?.close();
  });

  /** A store holding `articles` imported whole (the other shops' articles as generated). */
  const freshWith = async (articles: readonly Article[]) => {
    await fresh?.close();
    fresh = await openSqliteTestStore(0);
    await fresh.backend.replaceCatalog({ shops: catalog.shops, articles, hash: 'fresh' });
    return fresh.backend;
  };

  it('after a price delta (the facet counts and filter positions kept) and after a product delta', async () => {
    const { backend, reader } = changed;
    // Loaded, counted and kept before the deltas, so what the reader carries over is compared too.
    await replies(backend);
    await replies(backend);
    // A reader of its own connection, its match lists kept before the deltas, searched after them.
    await replies(reader);
    const countings = facetCountings();
    const prices: CatalogChange[] = repriced.map(({ article, prices }) => ({
      kind: 'prices',
      articleId: article.id,
      prices,
    }));
    await backend.applyShopDelta({ shop: labtools, changes: prices, hash: 'as-fresh-prices' });
    const afterPrices = await replies(backend);
    // The price delta left the facet columns: no segment's facets were counted again.
    expect(facetCountings()).toBe(countings);
    const newPrices = new Map(repriced.map(({ article, prices }) => [article.id, prices]));
    const pricedCatalog = all.map((a) => ({ ...a, ...newPrices.get(a.id) }));
    expect(afterPrices).toEqual(await replies(await freshWith(pricedCatalog)));
    expect(afterPrices.find((r) => r.q.sort[0]?.field === 'price')?.hits[0]?.article.blockPrices).toEqual(
      blockPrice(50).blockPrices,
    );

    await backend.applyShopDelta({
      shop: labtools,
      changes: [
        { kind: 'upsert', article: { ...updated, ...newPrices.get(updated.id) } },
        { kind: 'delete', articleId: deleted.id },
        { kind: 'upsert', article: added },
      ],
      hash: 'as-fresh-products',
    });
    const handed = (backend as SqliteSearchBackend).handedLists;
    const afterProducts = await replies(backend);
    // The backend's own reader matched the changed shop's part from the words its delta handed over.
    expect((backend as SqliteSearchBackend).handedLists).toBeGreaterThan(handed);
    const carried = reader.carriedLists;
    const reads = reader.textIndexReads;
    const readerAfterProducts = await replies(reader);
    // The lists of the other shops were taken from before the delta, the changed shop's read again.
    expect(reader.carriedLists - carried).toBeGreaterThan(0);
    expect(reader.textIndexReads - reads).toBeGreaterThanOrEqual(reader.carriedLists - carried);
    expect(readerAfterProducts).toEqual(afterProducts);
    const finalCatalog = [
      ...pricedCatalog.filter((a) => a.id !== deleted.id).map((a) => (a.id === updated.id ? { ...a, ...updated } : a)),
      added,
    ];
    expect(afterProducts).toEqual(await replies(await freshWith(finalCatalog)));
    expect(afterProducts.find((r) => r.q.words[0] === 'zirconium')?.hits.map((h) => h.article.id)).toEqual([added.id]);
    expect(afterProducts.find((r) => r.q.words[0] === 'crucible')?.hits.map((h) => h.article.id)).toContain(updated.id);
  });

  it('takes no handed words when another writer changed the shop after the delta that handed them', async () => {
    const { backend, database } = changed;
    // A backend of its own connections on the same file: another writer (its reader unused).
    const other = new SqliteSearchBackend(database);
    try {
      await replies(backend);
      const renamed: Article = {
        ...lab[6]!,
        description: 'quokka retort A4',
        descriptions: [{ lang: 'en', value: 'quokka retort A4' }],
      };
      await backend.applyShopDelta({ shop: labtools, changes: [{ kind: 'upsert', article: renamed }], hash: 'own' });
      // Before this backend searches again, another writer changes the same shop's words.
      const moved: Article = {
        ...lab[7]!,
        description: 'crucible a4x',
        descriptions: [{ lang: 'en', value: 'crucible a4x' }],
      };
      await other.applyShopDelta({ shop: labtools, changes: [{ kind: 'upsert', article: moved }], hash: 'other' });
      const handed = (backend as SqliteSearchBackend).handedLists;
      const after = await replies(backend);
      expect((backend as SqliteSearchBackend).handedLists).toBe(handed);
      const expected = await replies(changed.reader);
      expect(after).toEqual(expected);
      expect(after.find((r) => r.q.words.join(' ') === 'crucible a4')?.hits.map((h) => h.article.id)).toContain(
        moved.id,
      );
    } finally {
      await other.close();
    }
  });
});
