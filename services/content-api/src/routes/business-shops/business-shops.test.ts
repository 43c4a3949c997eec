import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { buildTestContentApp, type TestContentApp } from '../../test-support/content-test-app.js';

type LinkJson = { rel: string; href: string };
const rels = (body: { _schema: { links: LinkJson[] } }) =>
  Object.fromEntries(body._schema.links.map((l) => [l.rel, new URL(l.href)]));

describeEachDatabase('business shops routes', (getDb) => {
  let t: TestContentApp;
  beforeAll(async () => {
    t = await buildTestContentApp(getDb(), { articles: 8 });
  });
  afterAll(async () => {
    await t?.app.close();
  });

  it('lists shops with paging links and a link to each shop', async () => {
    const body = (await t.get('/api/business-shops?limit=2&offset=1')).json();
    expect(body).toMatchObject({ total: 4, offset: 1, limit: 2 });
    expect(body.members.map((s: { id: string }) => s.id)).toEqual(['labtools', 'office-direct']);
    expect(Object.keys(rels(body)).sort()).toEqual(['first', 'last', 'next', 'prev', 'self']);
    expect(rels(body.members[0]).self!.pathname).toBe('/api/business-shops/labtools');
  });

  it('serves the list also under /api/bshops and refuses limit above 100', async () => {
    expect((await t.get('/api/bshops')).json().total).toBe(4);
    expect((await t.get('/api/business-shops?limit=101')).json().errors).toEqual([
      expect.objectContaining({ code: 'MAXIMUM', limit: 100 }),
    ]);
  });

  it('follows an article detail link to the return policy, shipping costs and minimum order value', async () => {
    const article = (await t.get('/api/articles?limit=1')).json().members[0];
    const detail = (await t.get(new URL(article._schema.links[0].href).pathname)).json();
    const links = rels(detail);
    const policy = (await t.get(links['return-policy']!.pathname)).json();
    expect(policy).toMatchObject({
      businessShopId: article.article.id.split(':')[0],
      returnsAccepted: expect.any(Boolean),
    });
    const shipping = (await t.get(links['shipping-costs']!.pathname)).json();
    expect(Number.isInteger(shipping.standard.amount.value)).toBe(true);
    const minimum = (await t.get(links['minimum-order-value']!.pathname)).json();
    expect(minimum.minimumOrderValue.currency).toMatch(/^[A-Z]{3}$/);
  });

  it('answers 404 problem for an unknown shop', async () => {
    const response = await t.get('/api/business-shops/nope/return-policy');
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('CONTENT_ERR_SHOP_NOT_FOUND');
  });
});
