import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { InvalidQueryParamBody } from '../../errors.js';
import type { SearchResultReply } from '../../presenters/search-presenter.js';
import type { ContentTables } from '../../search/content-tables.js';
import { buildTestContentApp, type TestContentApp } from '../../test-support/content-test-app.js';

const ARTICLES = 60;

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
});
