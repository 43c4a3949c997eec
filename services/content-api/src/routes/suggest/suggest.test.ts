import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { generateCatalog } from '../../demo/generate-catalog.js';
import type { InvalidQueryParamBody } from '../../errors.js';
import type { SearchResultReply } from '../../presenters/search-presenter.js';
import type { ContentTables } from '../../migrations/content-tables.js';
import { searchWords } from '../../search/search-query.js';
import type { SuggestPage } from '../../search/suggest-words.js';
import { buildTestContentApp, TEST_SEED, type TestContentApp } from '../../test-support/content-test-app.js';

const ARTICLES = 80;
const all = [...generateCatalog({ articles: ARTICLES, seed: TEST_SEED }).articles()];
const shopId = all[0]!.shopId;
const shopWords = new Set(all.filter((a) => a.shopId === shopId).flatMap((a) => searchWords(a.description)));
const word = [...shopWords].find((w) => /^[a-z]{7,8}$/.test(w))!;

describeEachDatabase<ContentTables>('GET /api/suggest', (getDb) => {
  let t: TestContentApp;
  beforeAll(async () => {
    t = await buildTestContentApp(getDb(), { articles: ARTICLES });
  });
  afterAll(async () => {
    await t?.app.close();
  });
  const suggest = async (query: string) => {
    const response = await t.get(`/api/suggest?${query}`);
    expect(response.statusCode, query).toBe(200);
    return response.json<SuggestPage>();
  };
  /** The shop's articles holding `term` as the search counts them. */
  const hitsOf = async (term: string, shop = shopId) =>
    (
      await t.get(`/api/articles?q=${encodeURIComponent(term)}&matching=exact&limit=0&businessShopId=${shop}`)
    ).json<SearchResultReply>().total;

  it("completes the last word with the shop's words, most frequent first, with exact hit counts", async () => {
    const prefix = word.slice(0, 3);
    const page = await suggest(
      `q=${encodeURIComponent(`Blaue ${prefix.toUpperCase()}`)}&businessShopId=${shopId}&limit=20`,
    );
    expect(page.completions.length).toBeGreaterThan(0);
    const terms = page.completions.map((c) => c.text.slice('Blaue '.length));
    for (const c of page.completions) expect(c.text.startsWith('Blaue ')).toBe(true);
    for (const term of terms) expect(term.startsWith(prefix)).toBe(true);
    expect(terms).toContain(word);
    for (const c of page.completions) expect(c.hits, c.text).toBe(await hitsOf(c.text.slice('Blaue '.length)));
    const hits = page.completions.map((c) => c.hits);
    expect(hits).toEqual([...hits].sort((a, b) => b - a));
    expect((await suggest(`q=${prefix}&businessShopId=${shopId}&limit=1`)).completions).toEqual(
      page.completions.slice(0, 1).map((c) => ({ ...c, text: c.text.slice('Blaue '.length) })),
    );
  });

  it('corrects a typo of the last word, with the hits of the shop', async () => {
    const typo = `${word.slice(0, 2)}${word[3]}${word[2]}${word.slice(4)}`;
    const page = await suggest(`q=${typo}&businessShopId=${shopId}`);
    expect(page.corrections[0]).toEqual({ text: word, hits: await hitsOf(word) });
    expect(page.completions.some((c) => c.text === typo)).toBe(false);
  });

  it('counts per shop: another shop does not get words it lacks', async () => {
    const other = all.find((a) => a.shopId !== shopId)!.shopId;
    const page = await suggest(`q=${word}&businessShopId=${other}&limit=20`);
    for (const c of [...page.completions, ...page.corrections]) expect(c.hits).toBe(await hitsOf(c.text, other));
    if ((await hitsOf(word, other)) === 0) expect(page.completions.map((c) => c.text)).not.toContain(word);
  });

  it('adds up the counts of several shops, or of every shop without businessShopId', async () => {
    const others = [...new Set(all.map((a) => a.shopId))].filter((id) => id !== shopId).slice(0, 1);
    const hitsIn = async (term: string, shops: readonly string[]) =>
      (
        await t.get(
          `/api/articles?q=${encodeURIComponent(term)}&matching=exact&limit=0` +
            shops.map((id) => `&businessShopId=${id}`).join(''),
        )
      ).json<SearchResultReply>().total;
    const two = await suggest(`q=${word.slice(0, 2)}&businessShopId=${shopId}&businessShopId=${others[0]}&limit=20`);
    expect(two.completions.length).toBeGreaterThan(0);
    for (const c of two.completions) expect(c.hits, c.text).toBe(await hitsIn(c.text, [shopId, ...others]));
    const every = await suggest(`q=${word.slice(0, 2)}&limit=20`);
    for (const c of every.completions) expect(c.hits, c.text).toBe(await hitsIn(c.text, []));
    const hits = every.completions.map((c) => c.hits);
    expect(hits).toEqual([...hits].sort((a, b) => b - a));
  });

  it('answers nothing for too short a word or one with digits', async () => {
    expect(await suggest(`q=${word[0]}&businessShopId=${shopId}`)).toMatchObject({ completions: [], corrections: [] });
    expect(await suggest(`q=4711&businessShopId=${shopId}`)).toMatchObject({ completions: [], corrections: [] });
    expect(await suggest(`businessShopId=${shopId}`)).toMatchObject({ completions: [], corrections: [] });
  });

  it('refuses bad parameters and unknown shops in the API problem shape', async () => {
    const refused = async (query: string, status: number) => {
      const response = await t.get(`/api/suggest?${query}`);
      expect(response.statusCode, query).toBe(status);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      return response.json<InvalidQueryParamBody>();
    };
    expect(await refused('q=bohr&businessShopId=', 400)).toMatchObject({ queryParam: 'businessShopId' });
    expect((await refused(`q=bohr&businessShopId=${shopId}&limit=21`, 400)).errors).toEqual([
      expect.objectContaining({ path: '#/limit', code: 'MAXIMUM', limit: 20 }),
    ]);
    expect((await refused(`q=${'a'.repeat(201)}&businessShopId=${shopId}`, 400)).errors).toEqual([
      expect.objectContaining({ path: '#/q', code: 'MAXIMUM', limit: 200 }),
    ]);
    expect((await refused(`q=bohr&businessShopId=${shopId}&businessShopId=no-such-shop`, 404)).detail).toMatch(
      /no-such-shop/,
    );
  });
});
