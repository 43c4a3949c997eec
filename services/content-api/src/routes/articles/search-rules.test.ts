import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { generateCatalog } from '../../demo/generate-catalog.js';
import type { InvalidQueryParamBody } from '../../errors.js';
import { toScaled } from '../../model/decimal.js';
import { pricePerMinimumOrderQuantity } from '../../model/article-prices.js';
import type { SearchResultReply } from '../../presenters/search-presenter.js';
import type { ContentTables } from '../../migrations/content-tables.js';
import { searchWords } from '../../search/search-query.js';
import { buildTestContentApp, TEST_SEED, type TestContentApp } from '../../test-support/content-test-app.js';

const ARTICLES = 60;
const all = [...generateCatalog({ articles: ARTICLES, seed: TEST_SEED }).articles()];
const inEuro = all.filter((a) => a.shopId !== 'cz-technik');
const price = (a: (typeof all)[number]) => toScaled(pricePerMinimumOrderQuantity(a));
const fq = (expression: unknown) => encodeURIComponent(JSON.stringify({ expression }));
const UP_TO_50 = {
  type: 'DecimalRangeFilter',
  filterName: 'pricePerMinimumOrderQuantity',
  upperBound: { value: 5000, decimalDigits: 2 },
};

describeEachDatabase<ContentTables>('search parameter rules', (getDb) => {
  let t: TestContentApp;
  beforeAll(async () => {
    t = await buildTestContentApp(getDb(), { articles: ARTICLES });
  });
  afterAll(async () => {
    await t?.app.close();
  });
  const refused = async (url: string) => {
    const response = await t.get(url);
    expect(response.statusCode, url).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    return response.json<InvalidQueryParamBody>();
  };

  it('rejects numbers beyond any integer size with MAXIMUM or MINIMUM and the bound, never TYPE', async () => {
    expect((await refused('/api/articles?limit=99999999999999999999')).errors).toEqual([
      expect.objectContaining({ path: '#/limit', code: 'MAXIMUM', limit: 1000 }),
    ]);
    expect((await refused('/api/articles?offset=-99999999999999999999')).errors).toEqual([
      expect.objectContaining({ path: '#/offset', code: 'MINIMUM', limit: 0 }),
    ]);
    expect((await refused('/api/articles?offset=123456789012345678901234567890')).errors).toEqual([
      expect.objectContaining({ path: '#/offset', code: 'MAXIMUM', limit: 8000 }),
    ]);
    expect((await refused('/api/business-shops?limit=99999999999999999999')).errors).toEqual([
      expect.objectContaining({ path: '#/limit', code: 'MAXIMUM', limit: 100 }),
    ]);
    expect((await refused('/api/articles?limit=1e3')).errors).toEqual([
      expect.objectContaining({ path: '#/limit', code: 'TYPE' }),
    ]);
  });

  it('rejects q with more than 32 words with MAXIMUM 32 and searches 32 words', async () => {
    const words = (n: number) => Array.from({ length: n }, () => 'blue').join(' ');
    const body = await refused(`/api/articles?q=${encodeURIComponent(words(33))}`);
    expect(body).toMatchObject({ queryParam: 'q', errors: [{ path: '#/q', code: 'MAXIMUM', limit: 32 }] });
    expect(body.detail).toMatch(/33 words/);
    expect((await t.get(`/api/articles?q=${encodeURIComponent(words(32))}`)).statusCode).toBe(200);
  });

  it('matches a typo by default, only as typed with matching=exact, and keeps matching in links', async () => {
    const word = searchWords(all[0]!.description).find((w) => /^[a-z]{6,}$/.test(w))!;
    const typo = `${word.slice(0, 2)}${word[3]}${word[2]}${word.slice(4)}`; // two letters swapped
    const search = async (query: string) => (await t.get(`/api/articles?${query}`)).json<SearchResultReply>();
    const asTyped = await search(`q=${word}&matching=exact`);
    expect(asTyped.total).toBeGreaterThan(0);
    expect((await search(`q=${typo}&matching=exact`)).total).toBe(0);
    const fuzzy = await search(`q=${typo}`);
    expect(fuzzy.total).toBeGreaterThanOrEqual(asTyped.total);
    expect(fuzzy.members.map((m) => m.article.id)).toEqual(
      expect.arrayContaining(asTyped.members.slice(0, 1).map((m) => m.article.id)),
    );
    const self = new URL(asTyped._schema.links.find((l) => l.rel === 'self')!.href);
    expect(self.searchParams.get('matching')).toBe('exact');
    expect(await refused('/api/articles?q=x&matching=fuzzy')).toMatchObject({
      queryParam: 'matching',
      errors: [{ path: '#/matching', code: 'UNKNOWN' }],
    });
  });

  it('rejects an empty businessShopId instead of searching every shop', async () => {
    expect((await refused('/api/articles?businessShopId=')).errors).toEqual([
      expect.objectContaining({ path: '#/businessShopId/0', code: 'TYPE' }),
    ]);
    expect((await refused('/api/articles?businessShopId=labtools&businessShopId=')).errors).toEqual([
      expect.objectContaining({ path: '#/businessShopId/1', code: 'TYPE' }),
    ]);
    const one = (await t.get('/api/articles?businessShopId=labtools&limit=0')).json<SearchResultReply>();
    expect(one.total).toBeLessThan(ARTICLES);
  });

  it('sends no Cache-Control on 4xx replies, only on successes', async () => {
    const missing = await t.get('/api/articles/no-such-article');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBeUndefined();
    const shop = await t.get('/api/business-shops/no-such-shop');
    expect(shop.statusCode).toBe(404);
    expect(shop.headers['cache-control']).toBeUndefined();
    const bad = await t.get('/api/articles?limit=-1');
    expect(bad.headers['cache-control']).toBeUndefined();
    expect((await t.get('/api/articles?limit=1')).headers['cache-control']).toBe('private, max-age=300');
  });

  it('refuses a price sort or price filter over shops of two currencies, saying how to choose one', async () => {
    for (const url of [
      '/api/articles?sort=-price',
      `/api/articles?q=blue&fq=${fq({ type: 'Or', operands: [UP_TO_50] })}`,
    ]) {
      const body = await refused(url);
      expect(body).toMatchObject({ queryParam: 'currency', errors: [{ path: '#/currency', code: 'TYPE' }] });
      expect(body.errors[0]!.description).toMatch(/CZK and EUR.*currency=CZK/);
    }
    expect((await t.get('/api/articles?sort=-price&businessShopId=cz-technik')).statusCode).toBe(200);
    expect((await t.get(`/api/articles?fq=${fq(UP_TO_50)}&businessShopId=labtools`)).statusCode).toBe(200);
  });

  it('with currency, filters and sorts only the articles priced in it', async () => {
    const sorted = (await t.get('/api/articles?sort=-price&currency=EUR&limit=1000')).json<SearchResultReply>();
    expect(sorted.total).toBe(inEuro.length);
    expect(sorted.members.map((m) => m.article.pricePerMinimumOrderQuantity.currency)).toEqual(inEuro.map(() => 'EUR'));
    const expected = [...inEuro].sort((a, b) =>
      price(a) === price(b) ? (a.id < b.id ? -1 : 1) : price(a) > price(b) ? -1 : 1,
    );
    expect(sorted.members.map((m) => m.article.id)).toEqual(expected.map((a) => a.id));
    const crowns = (await t.get(`/api/articles?currency=CZK&fq=${fq(UP_TO_50)}&limit=1000`)).json<SearchResultReply>();
    const cheap = all.filter((a) => a.shopId === 'cz-technik' && price(a) <= 50_000_000n);
    expect(crowns.members.map((m) => m.article.id).sort()).toEqual(cheap.map((a) => a.id).sort());
    const shops = crowns.facets.find((f) => f.facetName === 'businessShopId')?.buckets.map((b) => b.value) ?? [];
    expect(shops.every((id) => id === 'cz-technik')).toBe(true);
    expect(new URL(crowns._schema.links[0]!.href).searchParams.get('currency')).toBe('CZK');
  });

  it('finds nothing in a currency no shop uses and refuses a malformed currency', async () => {
    expect((await t.get('/api/articles?currency=USD&sort=price')).json<SearchResultReply>().total).toBe(0);
    expect((await t.get('/api/articles?currency=USD&businessShopId=labtools')).json<SearchResultReply>().total).toBe(0);
    expect((await refused('/api/articles?currency=eur')).errors).toEqual([
      expect.objectContaining({ path: '#/currency', code: 'TYPE' }),
    ]);
  });
});
