import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { generateCatalog } from '../../demo/generate-catalog.js';
import type { InvalidQueryParamBody } from '../../errors.js';
import type { ArticleDetailReply } from '../../presenters/article-presenter.js';
import type { Link } from '../../presenters/links.js';
import type { SearchResultReply } from '../../presenters/search-presenter.js';
import { buildTestContentApp, TEST_SEED, type TestContentApp } from '../../test-support/content-test-app.js';
import type { ContentTables } from '../../migrations/content-tables.js';

const ARTICLES = 120;
const all = [...generateCatalog({ articles: ARTICLES, seed: TEST_SEED }).articles()];

const rels = (body: { readonly _schema: { readonly links: readonly Link[] } }) =>
  Object.fromEntries(body._schema.links.map((l) => [l.rel, new URL(l.href)]));
const fq = (expression: unknown) => encodeURIComponent(JSON.stringify({ expression }));

describeEachDatabase<ContentTables>('articles routes', (getDb) => {
  let t: TestContentApp;
  beforeAll(async () => {
    t = await buildTestContentApp(getDb(), { articles: ARTICLES });
  });
  afterAll(async () => {
    await t?.app.close();
  });
  const search = async (url: string) => (await t.get(url)).json<SearchResultReply>();
  const violations = async (url: string) => (await t.get(url)).json<InvalidQueryParamBody>().errors;

  it('returns the first 20 articles with total, facets and Cache-Control private, max-age=300', async () => {
    const response = await t.get('/api/articles');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, max-age=300');
    const body = response.json<SearchResultReply>();
    expect(body).toMatchObject({ total: ARTICLES, offset: 0, limit: 20 });
    expect(body.members).toHaveLength(20);
    expect(body.facets.map((f) => f.facetName)).toEqual([
      'businessShopId',
      'manufacturerName',
      'UNSPSC-7',
      'UNSPSC-9',
      'UNSPSC',
      'ECLASS',
      'ETIM',
    ]);
  });

  it('counts only the facets named by facet, labels classification groups and keeps facet in its links', async () => {
    const body = await search('/api/articles?facet=ECLASS&facet=manufacturerName&limit=5');
    expect(body.facets.map((f) => f.facetName)).toEqual(['manufacturerName', 'ECLASS']);
    const eclass = body.facets.find((f) => f.facetName === 'ECLASS')!;
    expect(eclass.buckets.reduce((n, b) => n + b.count, 0)).toBe(ARTICLES);
    expect(eclass.buckets.every((b) => typeof b.label === 'string' && b.label !== '')).toBe(true);
    const pens = eclass.buckets.find((b) => b.value === '24250201')!;
    expect(pens.label).toBe('Ballpoint pen');
    const apply = new URL(pens._schema.links[0]!.href);
    expect(apply.searchParams.getAll('facet')).toEqual(['manufacturerName', 'ECLASS']);
    expect(JSON.parse(apply.searchParams.get('fq')!)).toEqual({
      expression: { type: 'ExactReferenceFeatureMatchFilter', filterName: 'ECLASS', group: '24250201' },
    });
    const filtered = await search(apply.pathname + apply.search);
    expect(filtered.total).toBe(pens.count);
    expect(body.facets.find((f) => f.facetName === 'manufacturerName')!.buckets[0]).not.toHaveProperty('label');
  });

  it('rejects an unknown facet with an UNKNOWN violation listing the facets', async () => {
    const response = await t.get('/api/articles?facet=ECLASS&facet=colour');
    expect(response.statusCode).toBe(400);
    expect(response.json<InvalidQueryParamBody>()).toMatchObject({ queryParam: 'facet' });
    const errors = response.json<InvalidQueryParamBody>().errors;
    expect(errors.map((e) => [e.path, e.code])).toEqual([['#/facet/1', 'UNKNOWN']]);
    expect(errors[0]!.description).toContain('ECLASS, ETIM');
  });

  it('presents prices as integer decimals, never floats', async () => {
    const hit = (await search('/api/articles?limit=1')).members[0]!;
    const { amount, tax, currency } = hit.article.pricePerMinimumOrderQuantity;
    expect(Number.isInteger(amount.value) && Number.isInteger(amount.decimalDigits)).toBe(true);
    expect(tax).toEqual(expect.objectContaining({ decimalDigits: 2 }));
    expect(currency).toMatch(/^[A-Z]{3}$/);
    expect(JSON.stringify(hit.article)).not.toMatch(/"value":-?\d+\.\d/);
  });

  it('links each hit to its detail and its shop', async () => {
    const hit = (await search('/api/articles?limit=1')).members[0]!;
    const links = rels(hit);
    expect(links.details!.pathname).toBe(`/api/articles/${encodeURIComponent(hit.article.id)}`);
    expect(links.bshop!.pathname).toMatch(/^\/api\/business-shops\//);
    expect(links.details!.searchParams.get('hash')).toBe('test-v1');
  });

  it('searches q in every language and scores the hits', async () => {
    const expected = all.filter((a) => a.descriptions.some((d) => d.value.includes('gants'))).length;
    const body = await search('/api/articles?q=Gants&limit=1000');
    expect(body.total).toBe(expected);
    expect(body.members.every((m) => typeof m.score === 'number' && m.score > 0)).toBe(true);
  });

  it('pages with next/last on the first slice and prev/first further on', async () => {
    const first = rels(await search('/api/articles?limit=50'));
    expect(Object.keys(first).sort()).toEqual(['last', 'next', 'self']);
    expect(first.next!.searchParams.get('offset')).toBe('50');
    expect(first.last!.searchParams.get('offset')).toBe('100');
    const middle = rels(await search('/api/articles?limit=50&offset=30'));
    expect(middle.prev!.searchParams.get('offset')).toBe('0');
    expect(middle.first!.searchParams.get('offset')).toBe('0');
    const lastSlice = await search('/api/articles?limit=50&offset=100');
    expect(lastSlice.members).toHaveLength(20);
    expect(rels(lastSlice).next).toBeUndefined();
  });

  it('rejects limit above 1000 with a MAXIMUM validation error', async () => {
    const response = await t.get('/api/articles?limit=1001');
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({
      type: 'https://developers.triad.invalid/errors/invalid-query-param',
      status: 400,
      title: 'Invalid Query Parameter',
      queryParam: 'limit',
      errors: [{ path: '#/limit', code: 'MAXIMUM', limit: 1000 }],
    });
  });

  it('rejects offset above 8000, a negative offset and a non-integer limit', async () => {
    expect(await violations('/api/articles?offset=8001')).toEqual([
      expect.objectContaining({ code: 'MAXIMUM', limit: 8000, path: '#/offset' }),
    ]);
    expect(await violations('/api/articles?offset=-1')).toEqual([
      expect.objectContaining({ code: 'MINIMUM', limit: 0 }),
    ]);
    expect(await violations('/api/articles?limit=ten')).toEqual([
      expect.objectContaining({ code: 'TYPE', path: '#/limit' }),
    ]);
  });

  it('filters by businessShopId and by an fq tree, counting only matches', async () => {
    const byShop = await search('/api/articles?businessShopId=labtools&businessShopId=cz-technik&limit=0');
    expect(byShop.total).toBe(all.filter((a) => a.shopId === 'labtools' || a.shopId === 'cz-technik').length);
    const tree = {
      type: 'And',
      operands: [
        { type: 'ExactReferenceFeatureMatchFilter', filterName: 'UNSPSC-7', group: '44121704' },
        {
          type: 'Or',
          operands: [{ type: 'ExactStringMatchFilter', filterName: 'businessShopId', value: 'office-direct' }],
        },
      ],
    };
    const body = await search(`/api/articles?limit=1000&fq=${fq(tree)}`);
    const expected = all.filter(
      (a) =>
        a.shopId === 'office-direct' &&
        a.classifications.some((c) => c.systemName === 'UNSPSC-7' && c.groupId === '44121704'),
    );
    expect(body.members.map((m) => m.article.id).sort()).toEqual(expected.map((a) => a.id).sort());
  });

  it('rejects an unknown fq expression type with UNKNOWN at its JSON pointer', async () => {
    const response = await t.get(`/api/articles?fq=${fq({ type: 'And', operands: [{ type: 'Nope' }] })}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      queryParam: 'fq',
      errors: [{ code: 'UNKNOWN', path: '#/fq/expression/operands/0/type' }],
    });
  });

  it('gives facet buckets apply-filter links that narrow the search to the bucket', async () => {
    const body = await search('/api/articles?limit=0');
    const facet = body.facets.find((f) => f.facetName === 'manufacturerName');
    const bucket = facet?.buckets[0];
    if (!bucket) throw new Error('the search has no manufacturerName bucket');
    expect(bucket.bucketType).toBe('STRING');
    const link = new URL(bucket._schema.links[0]!.href);
    const narrowed = await search(link.pathname + link.search);
    expect(narrowed.total).toBe(bucket.count);
    expect(narrowed.total).toBe(all.filter((a) => a.manufacturerName === bucket.value).length);
  });

  it('omits the apply-filter link when a facet has a single bucket', async () => {
    const body = await search('/api/articles?businessShopId=labtools&limit=0');
    const facet = body.facets.find((f) => f.facetName === 'businessShopId');
    expect(facet?.buckets).toHaveLength(1);
    expect(facet?.buckets[0]?._schema.links).toEqual([]);
  });

  it('sorts by -price and rejects an unknown sort field with UNKNOWN', async () => {
    const body = await search('/api/articles?sort=-price&currency=EUR&limit=10');
    const values = body.members.map((m) => {
      const a = m.article.pricePerMinimumOrderQuantity.amount;
      return a.value / 10 ** a.decimalDigits;
    });
    expect(values).toEqual([...values].sort((x, y) => y - x));
    expect(await violations('/api/articles?sort=-colour')).toEqual([
      expect.objectContaining({ code: 'UNKNOWN', path: '#/sort/0' }),
    ]);
  });

  it('returns the article detail with prices, order details and shop links', async () => {
    const article = all[3]!;
    const response = await t.get(`/api/articles/${encodeURIComponent(article.id)}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, max-age=300');
    const body = response.json<ArticleDetailReply>();
    expect(body).toMatchObject({
      id: article.id,
      description: article.description,
      orderDetails: {
        orderUnit: article.orderDetails.orderUnit,
        unitInfo: { orderUnit: { unit: article.orderDetails.orderUnit, providerUnit: article.orderDetails.orderUnit } },
      },
    });
    expect(body.blockPricing[0]).toEqual({
      priceType: 'NET_CUSTOMER',
      amount: article.blockPrices[0]!.amount,
      currency: article.currency,
      tax: article.tax,
      lowerBound: 1,
    });
    expect(Object.keys(rels(body)).sort()).toEqual([
      'business-shop',
      'minimum-order-value',
      'return-policy',
      'self',
      'shipping-costs',
    ]);
  });

  it('answers 404 problem for an unknown article id', async () => {
    const response = await t.get('/api/articles/no-such-article');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({
      status: 404,
      title: 'Not Found',
      detail: 'No article has the id no-such-article',
    });
  });

  it('marks a request naming the current content version immutable and refuses an unknown one', async () => {
    const current = await t.get(`/api/articles/${encodeURIComponent(all[0]!.id)}?hash=test-v1`);
    expect(current.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    const old = await t.get('/api/articles?hash=v0');
    expect(old.statusCode).toBe(400);
    expect(old.json()).toMatchObject({ queryParam: 'hash', errors: [{ code: 'UNKNOWN', path: '#/hash' }] });
  });
});
