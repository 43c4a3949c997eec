import { afterAll, beforeAll, expect, it } from 'vitest';
import { describePostgresOnly } from '@triad/db/testing';
import { generateCatalog } from '../../demo/generate-catalog.js';
import type { Article } from '../../model/article.js';
import { loadTestCatalog, TEST_SEED } from '../../test-support/content-test-app.js';
import { queryWith } from '../../test-support/search-test-store.js';
import type { ContentTables } from '../../migrations/content-tables.js';
import type { CatalogChange, SearchBackend } from '../search-backend.js';
import { FACET_NAMES, type SearchQuery } from '../search-query.js';
import { facetCountings } from '../segments/segment.js';
import { PostgresCatalogReader } from './postgres-catalog-reader.js';
import { PostgresSearchBackend } from './postgres-search-backend.js';

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

const blockPrice = (value: number) => ({ blockPrices: [{ lowerBound: 1, amount: { value, decimalDigits: 2 } }] });
const repriced = lab.filter((_, i) => i % 3 === 0).map((a, i) => ({ article: a, prices: blockPrice(50 + 997 * i) }));
const updated: Article = {
  ...lab[1]!,
  description: 'aardvark crucible 7731x',
  descriptions: [{ lang: 'en', value: 'aardvark crucible 7731x' }],
};
const deleted = lab[2]!;
const added: Article = {
  ...lab[4]!,
  id: 'labtools:FRESH-1',
  supplierArticleId: 'FRESH-1',
  manufacturerName: 'Freshwerk',
  description: 'zirconium beaker 7732y',
  descriptions: [{ lang: 'en', value: 'zirconium beaker 7732y' }],
};

/**
 * Searches that show every column of the segments and every kept derivation: word matches
 * (exact, default, prefix, words with digits as a prefix), no words (whole-shop facet counts),
 * filters with and without prices, each sort.
 */
function searches(): SearchQuery[] {
  const words = [wordOf(lab[0]!), wordOf(lab[5]!), 'crucible', 'zirconium', 'beaker', 'aardvark'];
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
      query({ words: [w.slice(0, 3), w.slice(1, 5)], matching: 'default' }),
    ]),
    ...['773', '7731', '7732y', 'fresh-1', 'fre'].map((w) => query({ words: [w], matching: 'default' })),
    query({ words: [wordOf(lab[0]!), 'beaker'], matching: 'default' }),
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
async function replies(backend: SearchBackend) {
  const out = [];
  for (const q of searches()) {
    const page = await backend.search(q);
    out.push({ q, total: page.total, facets: page.facets, hits: page.hits, matched: page.matched });
  }
  return out;
}

// A reader that held segments, facet counts and vocabularies across the deltas answers as one that
// read everything after them, and as a store imported fresh with the final catalog.
describePostgresOnly<ContentTables>('PostgreSQL: searches after deltas answer as a fresh import', (getDb) => {
  let writer: SearchBackend;
  /** A reader of its own (no change bus): it takes the deltas' commits at its next search. */
  let reading: PostgresSearchBackend;
  const reader = new PostgresCatalogReader();
  /** Readers after the deltas, with nothing kept from before. */
  const cold: PostgresSearchBackend[] = [];
  beforeAll(async () => {
    writer = await loadTestCatalog(getDb(), ARTICLES);
    reading = new PostgresSearchBackend(getDb(), reader);
  });
  afterAll(async () => {
    await writer?.close();
    await reading?.close();
    for (const backend of cold) await backend.close();
  });
  const coldReplies = async () => {
    const backend = new PostgresSearchBackend(getDb());
    cold.push(backend);
    return replies(backend);
  };

  it('after a price delta (facet counts kept), product deltas and a fresh import of the final catalog', async () => {
    // Loaded, counted and kept before the deltas, so what the reader carries over is compared too.
    await replies(reading);
    await replies(reading);
    // Another reader held the vocabulary of words without digits only: the delta's words with
    // digits wait for their dictionary.
    const lettersOnly = new PostgresSearchBackend(getDb());
    cold.push(lettersOnly);
    await lettersOnly.search(query({ words: ['beaker'], matching: 'default' }));
    const countings = facetCountings();
    const prices: CatalogChange[] = repriced.map(({ article, prices }) => ({
      kind: 'prices',
      articleId: article.id,
      prices,
    }));
    await writer.applyShopDelta({ shop: labtools, changes: prices, hash: 'as-fresh-prices' });
    const afterPrices = await replies(reading);
    // The price delta left the facet columns: no segment's facets were counted again.
    expect(facetCountings()).toBe(countings);
    expect(afterPrices).toEqual(await coldReplies());
    const newPrices = new Map(repriced.map(({ article, prices }) => [article.id, prices]));
    expect(afterPrices.find((r) => r.q.sort[0]?.field === 'price')?.hits[0]?.article.blockPrices).toEqual(
      blockPrice(50).blockPrices,
    );

    // Two product deltas the reader takes at once (its vocabularies patched twice), then one more.
    await writer.applyShopDelta({
      shop: labtools,
      changes: [{ kind: 'upsert', article: { ...updated, ...newPrices.get(updated.id) } }],
      hash: 'as-fresh-products-1',
    });
    await writer.applyShopDelta({
      shop: labtools,
      changes: [{ kind: 'delete', articleId: deleted.id }],
      hash: 'as-fresh-products-2',
    });
    const loads = reader.vocabularyLoads;
    const carried = reader.postingsCarried;
    expect(await replies(reading)).toEqual(await coldReplies());
    // The shop's vocabulary was patched (both deltas at once), not read again, and the postings
    // kept of the words the deltas did not change were taken over (those of the changed ones,
    // such as 'crucible' and 'aardvark', searched before, are read again: the replies tell).
    expect(reader.vocabularyLoads).toEqual({ read: loads.read, patched: loads.patched + 1 });
    expect(reader.postingsCarried).toBeGreaterThan(carried);
    await writer.applyShopDelta({
      shop: labtools,
      changes: [{ kind: 'upsert', article: added }],
      hash: 'as-fresh-products-3',
    });
    const afterProducts = await replies(reading);
    expect(reader.vocabularyLoads).toEqual({ read: loads.read, patched: loads.patched + 2 });
    expect(afterProducts).toEqual(await coldReplies());
    expect(await replies(lettersOnly)).toEqual(afterProducts);
    expect(afterProducts.find((r) => r.q.words[0] === 'zirconium')?.hits.map((h) => h.article.id)).toEqual([added.id]);
    expect(
      afterProducts
        .find((r) => r.q.words[0] === '773')
        ?.hits.map((h) => h.article.id)
        .sort(),
    ).toEqual([added.id, updated.id].sort());

    const pricedCatalog = all.map((a) => ({ ...a, ...newPrices.get(a.id) }));
    const finalCatalog = [
      ...pricedCatalog.filter((a) => a.id !== deleted.id).map((a) => (a.id === updated.id ? { ...a, ...updated } : a)),
      added,
    ];
    await writer.replaceCatalog({ shops: catalog.shops, articles: finalCatalog, hash: 'fresh' });
    expect(afterProducts).toEqual(await coldReplies());
  });
});

// A process that applies a delta and searches (the bench; a server taking a delta): its reader
// takes the patched segment's columns from the delta (`handOver`) instead of reading them back,
// only at the generation they were written for.
describePostgresOnly<ContentTables>('PostgreSQL: columns handed over by a delta of the same process', (getDb) => {
  /** Another process: its deltas hand nothing to `own`'s reader. */
  let other: SearchBackend;
  let own: PostgresSearchBackend;
  const reader = new PostgresCatalogReader();
  const cold: PostgresSearchBackend[] = [];
  beforeAll(async () => {
    other = await loadTestCatalog(getDb(), ARTICLES);
    own = new PostgresSearchBackend(getDb(), reader);
  });
  afterAll(async () => {
    await other?.close();
    await own?.close();
    for (const backend of cold) await backend.close();
  });
  const coldReplies = async () => {
    const backend = new PostgresSearchBackend(getDb());
    cold.push(backend);
    return replies(backend);
  };

  it('are taken at their generation only, and a reader never mixes in another', async () => {
    await replies(own);
    const upsert = (article: Article) => ({ kind: 'upsert', article }) as const;
    const handed = () => ({
      chunks: reader.chunksHanded,
      vocabularies: reader.vocabulariesHanded,
      postings: reader.postingsHanded,
    });

    // Its own delta: every changed chunk, the vocabulary's changes and the postings buckets it
    // wrote (those of the words searched that it changed, such as 'aardvark') come from the delta.
    let before = handed();
    await own.applyShopDelta({ shop: labtools, changes: [upsert(updated)], hash: 'handed-1' });
    const afterOwn = await replies(own);
    expect(afterOwn).toEqual(await coldReplies());
    expect(reader.chunksHanded).toBeGreaterThan(before.chunks);
    expect(reader.vocabulariesHanded).toBe(before.vocabularies + 1);
    expect(reader.postingsHanded).toBeGreaterThan(before.postings);
    expect(afterOwn.find((r) => r.q.words[0] === 'aardvark')?.hits.map((h) => h.article.id)).toEqual([updated.id]);

    // A delta rolled back after its patch hands over a generation never committed.
    await expect(
      own.applyShopDelta({
        shop: labtools,
        changes: [{ kind: 'delete', articleId: deleted.id }],
        hash: 'handed-rolled-back',
        onSegment: () => {
          throw new Error('rolled back');
        },
      }),
    ).rejects.toThrow('rolled back');
    // Its own delta, then one of another process of the same shop (the same size, other makers
    // and prices) before this reader loads: what was handed over is of a generation gone.
    await own.applyShopDelta({
      shop: labtools,
      changes: [upsert({ ...lab[6]!, manufacturerName: 'Ownwerk' })],
      hash: 'handed-2',
    });
    const cheapest = lab[0]!;
    await other.applyShopDelta({
      shop: labtools,
      changes: [upsert({ ...cheapest, manufacturerName: 'Otherwerk', ...blockPrice(1) })],
      hash: 'handed-3',
    });
    before = handed();
    const afterOther = await replies(own);
    expect(afterOther).toEqual(await coldReplies());
    expect(handed()).toEqual(before);
    expect(afterOther.find((r) => r.q.sort[0]?.field === 'price')?.hits[0]?.article.id).toBe(cheapest.id);

    // Another process's delta (new words), then its own: the columns are taken, but its vocabulary
    // change starts after the other delta's, which this reader has not patched in: both are read.
    await other.applyShopDelta({ shop: labtools, changes: [upsert(added)], hash: 'handed-4' });
    // (No delete: filling its place would move the new article and rewrite its words' postings.)
    await own.applyShopDelta({
      shop: labtools,
      changes: [upsert({ ...lab[7]!, manufacturerName: 'Sevenwerk' })],
      hash: 'handed-5',
    });
    before = handed();
    const afterBoth = await replies(own);
    expect(afterBoth).toEqual(await coldReplies());
    expect(reader.chunksHanded).toBeGreaterThan(before.chunks);
    expect(reader.vocabulariesHanded).toBe(before.vocabularies);
    expect(afterBoth.find((r) => r.q.words[0] === 'zirconium')?.hits.map((h) => h.article.id)).toEqual([added.id]);
    expect(afterBoth.find((r) => r.q.words[0] === '773')?.hits.map((h) => h.article.id)).toContain(added.id);

    // Its own delta once more, over what it read back: both handed over again.
    before = handed();
    await own.applyShopDelta({
      shop: labtools,
      changes: [upsert({ ...lab[5]!, manufacturerName: 'Fifthwerk' })],
      hash: 'handed-6',
    });
    const afterLast = await replies(own);
    expect(afterLast).toEqual(await coldReplies());
    expect(reader.chunksHanded).toBeGreaterThan(before.chunks);
    expect(reader.vocabulariesHanded).toBe(before.vocabularies + 1);

    // Buckets handed over stay this reader's only while their postings generation is loaded: its
    // own delta writes a new word, then another process's delta gives it to a second article.
    const quokka = (article: Article): Article => ({
      ...article,
      description: 'quokka retort',
      descriptions: [{ lang: 'en', value: 'quokka retort' }],
    });
    await own.applyShopDelta({ shop: labtools, changes: [upsert(quokka(lab[3]!))], hash: 'handed-7' });
    await own.search(query({ words: ['beaker'] }));
    await other.applyShopDelta({ shop: labtools, changes: [upsert(quokka(lab[8]!))], hash: 'handed-8' });
    const found = await own.search(query({ words: ['quokka'], matching: 'exact' }));
    expect(found.hits.map((h) => h.article.id).sort()).toEqual([lab[3]!.id, lab[8]!.id].sort());
    expect(await replies(own)).toEqual(await coldReplies());
  });
});
