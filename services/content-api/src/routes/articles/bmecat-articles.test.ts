import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { createOpenApiReplyCheck } from '@triad/service-kit';
import { importCatalog } from '../../commands/import-catalog.js';
import { generateCatalog } from '../../demo/generate-catalog.js';
import type { ArticleDetailReply } from '../../presenters/article-presenter.js';
import type { SearchResultReply } from '../../presenters/search-presenter.js';
import type { ContentTables } from '../../migrations/content-tables.js';
import { SUPPLIER_BMECAT_12, SUPPLIER_BMECAT_2005 } from '../../test-support/bmecat-fixtures.js';
import { buildTestContentApp, TEST_SEED, type TestContentApp } from '../../test-support/content-test-app.js';

const shops = generateCatalog({ articles: 10, seed: TEST_SEED }).shops;
const labtools = shops.find((s) => s.id === 'labtools')!;
const office = shops.find((s) => s.id === 'office-direct')!;

describeEachDatabase<ContentTables>('articles from real supplier BMEcat files', (getDb) => {
  let t: TestContentApp;
  let detail: ArticleDetailReply;
  beforeAll(async () => {
    t = await buildTestContentApp(getDb(), { articles: 10 });
    const twelve = await importCatalog(t.backend, Readable.from([SUPPLIER_BMECAT_12]), {
      format: 'bmecat',
      shop: labtools,
      // While its prices are valid (2024-02-01 to 2024-12-31).
      pricesValidAt: new Date('2024-06-01T00:00:00Z'),
    });
    expect(twelve).toMatchObject({ imported: 2, failed: [] });
    const response = await t.get(`/api/articles/${encodeURIComponent('labtools:WB-4410')}`);
    expect(response.statusCode).toBe(200);
    detail = response.json<ArticleDetailReply>();
  });
  afterAll(async () => {
    await t?.app.close();
  });

  it('sends the normalised units with the provider units beside them', () => {
    expect(detail.orderDetails).toMatchObject({
      orderUnit: 'BX',
      contentUnit: 'H87',
      unitInfo: {
        orderUnit: { unit: 'BX', providerUnit: 'BOX' },
        contentUnit: { unit: 'H87', providerUnit: 'PCE' },
      },
    });
  });

  it('sends every media file with its purpose, absolute hrefs and MIME_ALT as alt', () => {
    expect(detail.mimeInfo).toEqual([
      {
        mimeType: 'image/jpeg',
        href: 'https://media.werkbank.example/bilder/wb-4410.jpg',
        description: 'Seitenschneider, geschlossen',
        purpose: 'normal',
        alt: 'Rot-schwarzer Seitenschneider',
      },
      {
        mimeType: 'application/pdf',
        href: 'https://media.werkbank.example/bilder/datenblaetter/wb-4410.pdf',
        description: 'Datenblatt',
        purpose: 'data_sheet',
      },
      {
        mimeType: 'application/pdf',
        href: 'https://sdb.werkbank.example/wb-4410-sdb.pdf',
        purpose: 'safety_data_sheet',
      },
    ]);
    expect(detail.mimeInfos[0]).toEqual({
      mimeType: 'image/jpeg',
      href: [{ lang: 'de', value: 'https://media.werkbank.example/bilder/wb-4410.jpg' }],
      description: [{ lang: 'de', value: 'Seitenschneider, geschlossen' }],
      purpose: 'normal',
      alt: [{ lang: 'de', value: 'Rot-schwarzer Seitenschneider' }],
    });
    expect(detail.mimeInfos.map((m) => m.purpose)).toEqual(['normal', 'data_sheet', 'safety_data_sheet']);
  });

  it('gives references an id that GET /api/articles/{id} follows', async () => {
    expect(detail.references).toEqual([{ articleReferenceType: 'accessories', refId: 'labtools:WB-4411' }]);
    const target = await t.get(`/api/articles/${encodeURIComponent(detail.references[0]!.refId)}`);
    expect(target.statusCode).toBe(200);
    expect(target.json<ArticleDetailReply>()).toMatchObject({
      id: 'labtools:WB-4411',
      orderDetails: { orderUnit: 'PR', unitInfo: { orderUnit: { unit: 'PR', providerUnit: 'PAA' } } },
    });
  });

  it('sends the alternative and buyer ids, the status and when and where the prices apply', () => {
    expect(detail.details).toMatchObject({
      supplierArticleId: 'WB-4410',
      supplierAlternativeArticleId: '4410-160',
      buyerArticleId: [{ type: 'KLINIK-7', value: 'MAT-000981' }],
      articleStatus: [{ type: 'core_article', value: 'Kernsortiment' }],
      remarks: [{ lang: 'de', value: 'Auslaufmodell ab Herbst' }],
      specialTreatmentClass: [{ type: 'GGVS', value: '0000' }],
      internationalArticleId: [{ type: 'gtin', value: '4012345000017' }],
    });
    expect(
      detail.blockPricing.map((p) => [p.lowerBound, p.validFrom, p.validUntil, p.territories, p.bmecatPriceType]),
    ).toEqual([
      [1, '2024-02-01T00:00:00Z', '2024-12-31', ['DE', 'CH'], 'net_customer'],
      [20, '2024-02-01T00:00:00Z', '2024-12-31', ['DE', 'CH'], 'net_customer'],
    ]);
  });

  it('shows an image, never a data sheet, as the first image of a hit', async () => {
    const page = (await t.get('/api/articles?businessShopId=labtools&q=seitenschneider')).json<SearchResultReply>();
    expect(page.members.map((m) => m.article.firstMimeImage?.mimeType)).toEqual(['image/jpeg']);
  });

  it('serves a Swedish catalog under sv with features and media sources per language', async () => {
    const result = await importCatalog(t.backend, Readable.from([SUPPLIER_BMECAT_2005]), {
      format: 'bmecat',
      // The catalog's prices are in SEK: the shop must take SEK.
      shop: { ...office, currency: 'SEK' },
      maxRejects: { count: 1 },
    });
    expect(result).toMatchObject({
      imported: 1,
      failed: [{ violations: [{ path: 'PRODUCT_DETAILS/DESCRIPTION_SHORT' }] }],
    });
    const glove = (
      await t.get(`/api/articles/${encodeURIComponent('office-direct:NV-77')}`)
    ).json<ArticleDetailReply>();
    expect(glove.descriptions).toEqual([
      { lang: 'sv', value: 'Arbetshandske nitril' },
      { lang: 'en', value: 'Nitrile work glove' },
    ]);
    expect(glove.articleFeatures[0]!.features.map((f) => [f.lang, f.name, f.values])).toEqual([
      ['sv', 'Färg', ['blå']],
      ['en', 'Colour', ['blue']],
      ['sv', 'Storlek', ['9']],
      ['en', 'Size', ['9']],
    ]);
    expect(glove.details).toMatchObject({ customsTariffNumber: '40151900', countryOfOrigin: 'MY' });
    expect(glove.mimeInfos[0]!.href).toEqual([
      { lang: 'sv', value: 'https://cdn.nordvik.example/media/sv/nv-77.png' },
      { lang: 'en', value: 'https://cdn.nordvik.example/media/en/nv-77.png' },
    ]);
  });

  it('sends replies the OpenAPI document describes', async () => {
    const check = createOpenApiReplyCheck((await t.app.inject({ method: 'GET', url: '/openapi.json' })).json());
    const path = '/api/articles/{articleId}';
    for (const id of ['labtools:WB-4410', 'labtools:WB-4411', 'office-direct:NV-77']) {
      expect(check('GET', path, await t.get(`/api/articles/${encodeURIComponent(id)}`)), id).toEqual([]);
    }
    expect(check('GET', '/api/articles', await t.get('/api/articles?businessShopId=labtools'))).toEqual([]);
  });
});
