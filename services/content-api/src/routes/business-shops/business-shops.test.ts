import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { ProblemDocument } from '@triad/service-kit';
import type { InvalidQueryParamBody } from '../../errors.js';
import type { ArticleDetailReply } from '../../presenters/article-presenter.js';
import type { Link } from '../../presenters/links.js';
import type { SearchResultReply } from '../../presenters/search-presenter.js';
import type {
  MinimumOrderValueReply,
  ReturnPolicyReply,
  ShippingCostsReply,
  ShopReply,
} from '../../presenters/shop-presenter.js';
import { buildTestContentApp, type TestContentApp } from '../../test-support/content-test-app.js';
import type { ContentTables } from '../../migrations/content-tables.js';

/** The shop list: a page of shops with paging links. */
interface ShopListReply {
  readonly total: number;
  readonly offset: number;
  readonly limit: number;
  readonly members: readonly ShopReply[];
  readonly _schema: { readonly links: readonly Link[] };
}

const rels = (body: { readonly _schema: { readonly links: readonly Link[] } }) =>
  Object.fromEntries(body._schema.links.map((l) => [l.rel, new URL(l.href)]));

describeEachDatabase<ContentTables>('business shops routes', (getDb) => {
  let t: TestContentApp;
  beforeAll(async () => {
    t = await buildTestContentApp(getDb(), { articles: 8 });
  });
  afterAll(async () => {
    await t?.app.close();
  });
  const json = async <T>(url: string) => (await t.get(url)).json<T>();

  it('lists shops with paging links and a link to each shop', async () => {
    const body = await json<ShopListReply>('/api/business-shops?limit=2&offset=1');
    expect(body).toMatchObject({ total: 4, offset: 1, limit: 2 });
    expect(body.members.map((s) => s.id)).toEqual(['labtools', 'office-direct']);
    expect(Object.keys(rels(body)).sort()).toEqual(['first', 'last', 'next', 'prev', 'self']);
    expect(rels(body.members[0]!).self!.pathname).toBe('/api/business-shops/labtools');
  });

  it('serves the list also under /api/bshops and refuses limit above 100', async () => {
    expect((await json<ShopListReply>('/api/bshops')).total).toBe(4);
    expect((await json<InvalidQueryParamBody>('/api/business-shops?limit=101')).errors).toEqual([
      expect.objectContaining({ code: 'MAXIMUM', limit: 100 }),
    ]);
  });

  it('follows an article detail link to the return policy, shipping costs and minimum order value', async () => {
    const hit = (await json<SearchResultReply>('/api/articles?limit=1')).members[0]!;
    const detail = await json<ArticleDetailReply>(new URL(hit._schema.links[0]!.href).pathname);
    const links = rels(detail);
    const policy = await json<ReturnPolicyReply>(links['return-policy']!.pathname);
    expect(policy.businessShopId).toBe(hit.article.id.split(':')[0]);
    expect(typeof policy.returnsAccepted).toBe('boolean');
    const shipping = await json<ShippingCostsReply>(links['shipping-costs']!.pathname);
    expect(Number.isInteger(shipping.standard.amount.value)).toBe(true);
    const minimum = await json<MinimumOrderValueReply>(links['minimum-order-value']!.pathname);
    expect(minimum.minimumOrderValue.currency).toMatch(/^[A-Z]{3}$/);
  });

  it('answers every link of every shop and of its resources, the business-shop link included', async () => {
    const { members } = await json<ShopListReply>('/api/business-shops');
    expect(members).toHaveLength(4);
    const followed = new Set<string>();
    for (const shop of members) {
      for (const link of shop._schema.links) {
        const url = new URL(link.href);
        const response = await t.get(url.pathname + url.search);
        expect(response.statusCode, `${shop.id} ${link.rel}`).toBe(200);
        followed.add(link.rel);
        if (!url.pathname.startsWith('/api/business-shops/')) continue;
        for (const inner of response.json<ShopReply>()._schema.links) {
          const target = new URL(inner.href);
          expect((await t.get(target.pathname + target.search)).statusCode, `${link.rel} ${inner.rel}`).toBe(200);
          followed.add(inner.rel);
        }
      }
    }
    expect([...followed].sort()).toEqual(
      ['articles', 'business-shop', 'minimum-order-value', 'return-policy', 'self', 'shipping-costs'].sort(),
    );
  });

  it('answers 404 problem for an unknown shop', async () => {
    const response = await t.get('/api/business-shops/nope/return-policy');
    expect(response.statusCode).toBe(404);
    expect(response.json<ProblemDocument>().code).toBe('CONTENT_ERR_SHOP_NOT_FOUND');
  });
});
