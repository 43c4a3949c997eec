import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { generateCatalog } from '../demo/generate-catalog.js';
import type { Article } from '../model/article.js';
import { loadTestCatalog, TEST_SEED } from '../test-support/content-test-app.js';
import { compareCodePoints } from './code-point-order.js';
import type { SearchBackend } from './search-backend.js';
import { FACET_NAMES, type FacetCount, type SearchQuery } from './search-query.js';
import type { ContentTables } from '../migrations/content-tables.js';

const ARTICLES = 160;
const catalog = generateCatalog({ articles: ARTICLES, seed: TEST_SEED });
const original = [...catalog.articles()];
const shop = (id: string) => catalog.shops.find((s) => s.id === id)!;
/** Another catalog for labtools: other articles (seed 99), ids renumbered so they differ. */
const replacement = [...generateCatalog({ articles: 120, seed: 99 }).articles()]
  .filter((a) => a.shopId === 'labtools')
  .map((a, i): Article => ({
    ...a,
    supplierArticleId: `NEW-${i}`,
    id: `labtools:NEW-${i}`,
    manufacturerName: i % 3 === 0 ? 'Zeiss' : a.manufacturerName,
  }));

/** The facets `facetsOf` computes (the classification facets of any version are tested elsewhere). */
const FACETS = FACET_NAMES.filter((f) => !['UNSPSC', 'ECLASS', 'ETIM'].includes(f));
const everything: SearchQuery = { words: [], shopIds: [], sort: [], limit: 0, offset: 0, facets: FACETS };

/** The facets of `articles` computed from scratch, as the search must report them. */
function facetsOf(articles: readonly Article[]): FacetCount[] {
  const tally = (values: readonly (string | undefined)[]) => {
    const counts = new Map<string, number>();
    for (const v of values) if (v !== undefined) counts.set(v, (counts.get(v) ?? 0) + 1);
    return [...counts]
      .sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0]))
      .map(([value, count]) => ({ value, count }));
  };
  const group = (a: Article, system: string) => a.classifications.find((c) => c.systemName === system)?.groupId;
  return [
    { facetName: 'businessShopId', buckets: tally(articles.map((a) => a.shopId)) },
    { facetName: 'manufacturerName', buckets: tally(articles.map((a) => a.manufacturerName)) },
    { facetName: 'UNSPSC-7', buckets: tally(articles.map((a) => group(a, 'UNSPSC-7'))) },
    { facetName: 'UNSPSC-9', buckets: tally(articles.map((a) => group(a, 'UNSPSC-9'))) },
  ];
}

describeEachDatabase<ContentTables>('catalog replacement', (getDb) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    backend = await loadTestCatalog(getDb(), ARTICLES);
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('keeps the per-shop facet counts equal to counts from scratch across shop replacements', async () => {
    expect((await backend.search(everything)).facets).toEqual(facetsOf(original));
    await backend.replaceShopCatalog({ shop: shop('labtools'), articles: replacement, hash: 'r1' });
    const now = [...original.filter((a) => a.shopId !== 'labtools'), ...replacement];
    expect((await backend.search(everything)).facets).toEqual(facetsOf(now));
    expect((await backend.search(everything)).total).toBe(now.length);
    expect((await backend.search({ ...everything, shopIds: ['labtools'] })).facets).toEqual(facetsOf(replacement));
    // Emptying a shop removes its buckets; its record stays.
    await backend.replaceShopCatalog({ shop: shop('cz-technik'), articles: [], hash: 'r2' });
    const rest = now.filter((a) => a.shopId !== 'cz-technik');
    expect((await backend.search(everything)).facets).toEqual(facetsOf(rest));
    expect(await backend.countArticles()).toBe(rest.length);
    expect(await backend.findShop('cz-technik')).toMatchObject({ id: 'cz-technik' });
    const zeiss = await backend.search({
      ...everything,
      limit: 100,
      filter: { type: 'ExactStringMatchFilter', filterName: 'manufacturerName', value: 'Zeiss' },
    });
    expect(zeiss.hits.map((h) => h.article.id).sort()).toEqual(
      replacement
        .filter((a) => a.manufacturerName === 'Zeiss')
        .map((a) => a.id)
        .sort(),
    );
  });

  it('lets readers see the old catalog until the replacement commits, then only the new one', async () => {
    const before = await backend.search(everything);
    const hash = await backend.currentHash();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let halfway!: () => void;
    const reachedHalfway = new Promise<void>((resolve) => (halfway = resolve));
    const next = original.filter((a) => a.shopId === 'labtools');
    async function* slowly(): AsyncGenerator<Article> {
      yield* next.slice(0, 10);
      halfway();
      await released;
      yield* next.slice(10);
    }
    const replacing = backend.replaceShopCatalog({ shop: shop('labtools'), articles: slowly(), hash: 'r3' });
    await reachedHalfway;
    // The import's transaction is open and holds 10 new articles: readers still see the old catalog.
    const during = await backend.search(everything);
    expect(during.total).toBe(before.total);
    expect(during.facets).toEqual(before.facets);
    expect(await backend.currentHash()).toBe(hash);
    expect(await backend.findArticle(next[0]!.id)).toBeUndefined();
    release();
    expect(await replacing).toBe(next.length);
    expect(await backend.currentHash()).toBe('r3');
    const after = await backend.search(everything);
    expect(after.total).toBe(before.total - replacement.length + next.length);
    expect(await backend.findArticle(next[0]!.id)).toEqual(next[0]);
  });

  it('finds a repeated id written thousands of articles before', async () => {
    const [a] = original.filter((x) => x.shopId === 'werkstatt-profi');
    // More articles than one batch of rows, so the first is written before its repeat comes.
    const many = Array.from({ length: 2500 }, (_, i): Article => ({
      ...a!,
      supplierArticleId: `MANY-${i}`,
      id: `werkstatt-profi:MANY-${i}`,
    }));
    const repeats: string[] = [];
    const stored = await backend.replaceShopCatalog({
      shop: shop('werkstatt-profi'),
      articles: [...many, { ...many[3]!, description: 'again' }],
      hash: 'r4b',
      onDuplicate: (article) => repeats.push(article.id),
    });
    expect(stored).toBe(2500);
    expect(repeats).toEqual([many[3]!.id]);
    expect((await backend.findArticle(many[3]!.id))?.description).toBe(a!.description);
  });

  it('reports a repeated id to onDuplicate and stores the first, or fails without it', async () => {
    const [a, b] = original.filter((x) => x.shopId === 'werkstatt-profi');
    const repeats: string[] = [];
    const stored = await backend.replaceShopCatalog({
      shop: shop('werkstatt-profi'),
      articles: [a!, b!, { ...a!, description: 'second' }],
      hash: 'r4',
      onDuplicate: (article) => repeats.push(article.id),
    });
    expect(stored).toBe(2);
    expect(repeats).toEqual([a!.id]);
    expect((await backend.findArticle(a!.id))?.description).toBe(a!.description);
    await expect(
      backend.replaceShopCatalog({ shop: shop('werkstatt-profi'), articles: [a!, a!], hash: 'r5' }),
    ).rejects.toThrow(RangeError);
    expect(await backend.currentHash()).toBe('r4');
  });

  it('refuses a shop id holding ":" and an article id outside its shop, changing nothing', async () => {
    const count = await backend.countArticles();
    await expect(
      backend.replaceShopCatalog({ shop: { ...shop('labtools'), id: 'lab:tools' }, articles: [], hash: 'x' }),
    ).rejects.toThrow(RangeError);
    const foreign = { ...original.find((x) => x.shopId === 'labtools')!, id: 'labtoolsX:1' };
    await expect(
      backend.replaceShopCatalog({ shop: shop('labtools'), articles: [foreign], hash: 'x' }),
    ).rejects.toThrow(/does not start with/);
    expect(await backend.countArticles()).toBe(count);
    expect(await backend.currentHash()).toBe('r4');
  });
});
