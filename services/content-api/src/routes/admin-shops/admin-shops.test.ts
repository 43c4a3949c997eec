import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDatabase } from '@triad/db/testing';
import type { ProblemDocument } from '@triad/service-kit';
import type { ShopRecordReply, ShopReply, ShippingCostsReply } from '../../presenters/shop-presenter.js';
import type { SearchResultReply } from '../../presenters/search-presenter.js';
import { buildTestAdminApp, type TestAdminApp } from '../../test-support/content-test-app.js';
import type { ContentTables } from '../../migrations/content-tables.js';

interface InvalidShopBody extends ProblemDocument {
  readonly errors: readonly { readonly pointer: string; readonly message: string }[];
}

describeEachDatabase<ContentTables>('admin shops routes', (getDb) => {
  let t: TestAdminApp;
  let adminToken: string;
  beforeAll(async () => {
    t = await buildTestAdminApp(getDb(), 8);
    expect(t.adminScope).toBe('content:admin');
    adminToken = t.adminToken;
  });
  afterAll(async () => {
    await t?.app.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    token: string | undefined = adminToken,
  ): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method,
      url,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined
        ? {}
        : {
            payload: JSON.stringify(body),
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          }),
    });
  const shopCount = async () => (await call('GET', '/admin/business-shops')).json<{ total: number }>().total;

  it('answers 401 without a token and 403 with a read token, changing nothing', async () => {
    const before = await shopCount();
    const anonymous = await call('POST', '/admin/business-shops', { id: 'x', name: 'X' }, '');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer /);
    const reader = await call('POST', '/admin/business-shops', { id: 'x', name: 'X' }, t.token);
    expect(reader.statusCode).toBe(403);
    expect(reader.json<ProblemDocument>().code).toBe('CONTENT_ERR_FORBIDDEN');
    expect(
      (await call('DELETE', '/admin/business-shops/labtools?withArticles=true', undefined, t.token)).statusCode,
    ).toBe(403);
    expect(await shopCount()).toBe(before);
  });

  it('refuses an admin token on the read API', async () => {
    const response = await t.get('/api/business-shops', { authorization: `Bearer ${adminToken}` });
    expect(response.statusCode).toBe(403);
  });

  it('creates a shop with 201 and a Location, which the read API then serves with all its resources', async () => {
    const created = await call('POST', '/admin/business-shops', {
      id: 'acme',
      name: 'ACME',
      shippingCosts: { standard: { amount: { value: 495, decimalDigits: 2 } }, countries: ['DE'] },
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers.location).toBe('/admin/business-shops/acme');
    expect(created.json<ShopRecordReply>().minimumOrderValue.amount).toEqual({
      amount: { value: 0, decimalDigits: 0 },
      currency: 'EUR',
    });
    const shop = await t.get('/api/business-shops/acme');
    expect(shop.statusCode).toBe(200);
    const links = shop.json<ShopReply>()._schema.links;
    for (const link of links.filter((l) => l.rel !== 'self')) {
      const followed = await t.get(new URL(link.href).pathname + new URL(link.href).search);
      expect(followed.statusCode, link.rel).toBe(200);
    }
    const shipping = (await t.get('/api/business-shops/acme/shipping-costs')).json<ShippingCostsReply>();
    expect(shipping.standard).toEqual({ amount: { value: 495, decimalDigits: 2 }, currency: 'EUR' });
    const back = shipping._schema.links.find((l) => l.rel === 'business-shop')!;
    expect((await t.get(new URL(back.href).pathname)).statusCode).toBe(200);
    expect((await call('POST', '/admin/business-shops', { id: 'acme', name: 'Again' })).statusCode).toBe(409);
    expect((await call('GET', '/admin/business-shops/acme')).json<ShopRecordReply>().name).toBe('ACME');
  });

  it('refuses bad bodies with 400 or 422 listing every violation, changing nothing', async () => {
    const before = await shopCount();
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/admin/business-shops',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      payload: '{"id": "broken",',
    });
    expect(malformed.statusCode).toBe(400);
    const invalid = await call('POST', '/admin/business-shops', {
      id: 'bad:id',
      name: '',
      currency: 'eur',
      returnPolicy: { returnPeriodDays: '14' },
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = invalid.json<InvalidShopBody>();
    expect(body.code).toBe('CONTENT_ERR_SHOP_INVALID');
    expect(body.errors.map((e) => e.pointer).sort()).toEqual(
      ['/currency', '/id', '/name', '/returnPolicy/returnPeriodDays'].sort(),
    );
    const patch = await call('PATCH', '/admin/business-shops/labtools', {
      minimumOrderValue: { amount: { amount: { value: 10 }, currency: 'USD' } },
    });
    expect(patch.statusCode).toBe(422);
    expect(await shopCount()).toBe(before);
    expect(
      (await call('GET', '/admin/business-shops/labtools')).json<ShopRecordReply>().minimumOrderValue.amount.currency,
    ).not.toBe('USD');
  });

  it('replaces with PUT (200, articles kept) and changes one section with PATCH', async () => {
    const articles = async () =>
      (await t.get('/api/articles?businessShopId=labtools&limit=0')).json<SearchResultReply>().total;
    const count = await articles();
    expect(count).toBeGreaterThan(0);
    const put = await call('PUT', '/admin/business-shops/labtools', { name: 'LabTools New', currency: 'EUR' });
    expect(put.statusCode).toBe(200);
    expect(put.json<ShopRecordReply>().returnPolicy.returnPeriodDays).toBe(14);
    expect(await articles()).toBe(count);
    const patched = await call('PATCH', '/admin/business-shops/labtools', {
      shippingCosts: { freeShippingFrom: { amount: { value: 100 } } },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json<ShopRecordReply>()).toMatchObject({
      name: 'LabTools New',
      shippingCosts: { freeShippingFrom: { amount: { value: 100, decimalDigits: 0 }, currency: 'EUR' } },
    });
    const created = await call('PUT', '/admin/business-shops/put-new', { name: 'Put New' });
    expect(created.statusCode).toBe(201);
  });

  it('keeps a default tax and price types, sends the default types, and resets both with PATCH null', async () => {
    const created = await call('POST', '/admin/business-shops', {
      id: 'taxed',
      name: 'Taxed',
      defaultTax: { value: 19, decimalDigits: 2 },
      priceTypes: ['net_list', 'udp_dealer'],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json<ShopRecordReply>()).toMatchObject({
      defaultTax: { value: 19, decimalDigits: 2 },
      priceTypes: ['net_list', 'udp_dealer'],
    });
    const reset = await call('PATCH', '/admin/business-shops/taxed', { defaultTax: null, priceTypes: null });
    expect(reset.statusCode).toBe(200);
    const record = reset.json<ShopRecordReply>();
    expect('defaultTax' in record).toBe(false);
    expect(record.priceTypes).toEqual(['net_customer', 'net_list', 'gros_list']);
    const bad = await call('PATCH', '/admin/business-shops/taxed', {
      defaultTax: { value: 19 },
      priceTypes: ['a', 'a'],
    });
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    expect((await call('GET', '/admin/business-shops/taxed')).json<ShopRecordReply>().priceTypes).toEqual([
      'net_customer',
      'net_list',
      'gros_list',
    ]);
  });

  it('answers 404 for an unknown shop on GET, PATCH and DELETE', async () => {
    for (const [method, body] of [['GET'], ['PATCH', { name: 'X' }], ['DELETE']] as const) {
      const response = await call(method, '/admin/business-shops/nope', body);
      expect(response.statusCode, method).toBe(404);
      expect(response.json<ProblemDocument>().code).toBe('CONTENT_ERR_SHOP_NOT_FOUND');
    }
  });

  it('refuses to delete a shop with articles (409) unless withArticles=true, then 204 with its articles', async () => {
    const hit = (await t.get('/api/articles?businessShopId=office-direct&limit=1')).json<SearchResultReply>();
    expect(hit.total).toBeGreaterThan(0);
    expect((await call('DELETE', '/admin/business-shops/office-direct?withArticles=maybe')).statusCode).toBe(400);
    const refused = await call('DELETE', '/admin/business-shops/office-direct');
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ articles: number }>().articles).toBe(hit.total);
    const removed = await call('DELETE', '/admin/business-shops/office-direct?withArticles=true');
    expect(removed.statusCode).toBe(204);
    expect((await t.get('/api/business-shops/office-direct')).statusCode).toBe(404);
    expect((await t.get(`/api/articles/${encodeURIComponent(hit.members[0]!.article.id)}`)).statusCode).toBe(404);
  });
});
