import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { importCatalog } from '../commands/import-catalog.js';
import { generateCatalog } from '../demo/generate-catalog.js';
import { jsonLinesCatalog } from '../demo/catalog-writers.js';
import type { Link } from '../presenters/links.js';
import type { SearchResultReply } from '../presenters/search-presenter.js';
import type { ContentTables } from '../migrations/content-tables.js';
import { buildTestContentApp, TEST_SEED, type TestContentApp } from '../test-support/content-test-app.js';

const ARTICLES = 40;
const catalog = generateCatalog({ articles: ARTICLES, seed: TEST_SEED });
const all = [...catalog.articles()];
const hashOf = (link: Link | undefined) => new URL(link!.href).searchParams.get('hash');
const linkTo = (body: { _schema: { links: readonly Link[] } }, rel: string) =>
  body._schema.links.find((l) => l.rel === rel);

describeEachDatabase<ContentTables>('content versions per shop', (getDb) => {
  let t: TestContentApp;
  beforeAll(async () => {
    t = await buildTestContentApp(getDb(), { articles: ARTICLES });
  });
  afterAll(async () => {
    await t?.app.close();
  });

  it("keeps every link of other shops valid when one shop's catalog is imported", async () => {
    const lab = all.find((a) => a.shopId === 'labtools')!;
    const office = all.find((a) => a.shopId === 'office-direct')!;
    const officeReply = await t.get('/api/articles?businessShopId=office-direct');
    expect(officeReply.body).toContain('members');
    const officeSearch = officeReply.json<SearchResultReply>();
    const allSearch = (await t.get('/api/articles')).json<SearchResultReply>();
    const officeDetail = hashOf(officeSearch.members[0]!._schema.links.find((l) => l.rel === 'details'));
    const officeSelf = linkTo(officeSearch, 'self') ?? linkTo(officeSearch, 'first');
    const everything = hashOf(linkTo(allSearch, 'next'));
    expect(officeDetail).toBe('test-v1');
    expect(everything).toMatch(/^[0-9a-f]{16}$/);

    const labArticles = all.filter((a) => a.shopId === 'labtools').slice(0, 3);
    const result = await importCatalog(t.backend, Readable.from([...jsonLinesCatalog(labArticles)].join('')), {
      format: 'jsonl',
      shop: catalog.shops.find((s) => s.id === 'labtools')!,
    });
    if (!result.committed) throw new Error(result.refusal);

    // The other shop's links: same version, still answered.
    const officeUrl = `/api/articles/${encodeURIComponent(office.id)}?hash=${officeDetail}`;
    expect((await t.get(officeUrl)).statusCode).toBe(200);
    expect((await t.get(`/api/articles?businessShopId=office-direct&hash=${officeDetail}`)).statusCode).toBe(200);
    expect((await t.get(`/api/business-shops/office-direct?hash=${officeDetail}`)).statusCode).toBe(200);
    if (officeSelf)
      expect((await t.get(new URL(officeSelf.href).pathname + new URL(officeSelf.href).search)).statusCode).toBe(200);
    // The imported shop and every search over all shops: a new version, the old one refused.
    const labOld = await t.get(`/api/articles/${encodeURIComponent(lab.id)}?hash=test-v1`);
    expect(labOld.statusCode).toBe(400);
    expect((await t.get(`/api/articles/${encodeURIComponent(lab.id)}?hash=${result.hash}`)).statusCode).toBe(200);
    expect((await t.get(`/api/articles?hash=${everything}`)).statusCode).toBe(400);
    const now = (await t.get('/api/articles')).json<SearchResultReply>();
    const details = now.members.map((m) => m._schema.links.find((l) => l.rel === 'details')!);
    const labDetails = details.find((l) => l.href.includes('/labtools%3A'));
    const officeDetails = details.find((l) => l.href.includes('/office-direct%3A'));
    expect(hashOf(labDetails)).toBe(result.hash);
    expect(hashOf(officeDetails)).toBe('test-v1');
    const nextNow = linkTo(now, 'next')!;
    expect(hashOf(nextNow)).not.toBe(everything);
    expect((await t.get(new URL(nextNow.href).pathname + new URL(nextNow.href).search)).statusCode).toBe(200);
  });
});
