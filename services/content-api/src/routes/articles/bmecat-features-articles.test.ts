import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { createOpenApiReplyCheck } from '@triad/service-kit';
import { importCatalog } from '../../commands/import-catalog.js';
import { generateCatalog } from '../../demo/generate-catalog.js';
import type { ArticleDetailReply } from '../../presenters/article-presenter.js';
import type { ContentTables } from '../../migrations/content-tables.js';
import { buildTestContentApp, TEST_SEED, type TestContentApp } from '../../test-support/content-test-app.js';

const shop = generateCatalog({ articles: 10, seed: TEST_SEED }).shops.find((s) => s.id === 'labtools');

/**
 * A BMEcat 2005 catalog in the image of an electrical supplier's (written for this test): a
 * classification system defining a group, a feature template and an allowed value; a product
 * with ECLASS advanced features (named in `FTEMPLATE`, referred to by `FT_IDREF`, values by
 * `VALUE_IDREF`), a `FEATURE_GROUP`, features without a system, keywords and a weight.
 */
const CATALOG =
  `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">
  <HEADER><CATALOG><LANGUAGE default="true">deu</LANGUAGE><CATALOG_ID>E</CATALOG_ID>` +
  `<CATALOG_VERSION>1</CATALOG_VERSION><CURRENCY>EUR</CURRENCY></CATALOG></HEADER>
  <T_NEW_CATALOG>
    <CLASSIFICATION_SYSTEM>
      <CLASSIFICATION_SYSTEM_NAME>eCl@ss 9.0</CLASSIFICATION_SYSTEM_NAME>
      <CLASSIFICATION_GROUPS><CLASSIFICATION_GROUP type="leaf">` +
  `<CLASSIFICATION_GROUP_ID>27141141</CLASSIFICATION_GROUP_ID>` +
  `<CLASSIFICATION_GROUP_NAME>Durchgangsklemme</CLASSIFICATION_GROUP_NAME>` +
  `</CLASSIFICATION_GROUP></CLASSIFICATION_GROUPS>
      <ALLOWED_VALUES><ALLOWED_VALUE><ALLOWED_VALUE_ID>V-SCREW</ALLOWED_VALUE_ID>` +
  `<ALLOWED_VALUE_NAME>Schraubanschluss</ALLOWED_VALUE_NAME></ALLOWED_VALUE></ALLOWED_VALUES>
      <CLASSIFICATION_SYSTEM_FEATURE_TEMPLATES><FEATURE_TEMPLATE><FT_ID>F-CONN</FT_ID>` +
  `<FT_NAME>Anschlussart</FT_NAME></FEATURE_TEMPLATE></CLASSIFICATION_SYSTEM_FEATURE_TEMPLATES>
    </CLASSIFICATION_SYSTEM>
    <PRODUCT>
      <SUPPLIER_PID>DK-4</SUPPLIER_PID>
      <PRODUCT_DETAILS>
        <DESCRIPTION_SHORT>Durchgangsklemme 4 mm²</DESCRIPTION_SHORT>
        <KEYWORD>Reihenklemme</KEYWORD><KEYWORD lang="eng">terminal block</KEYWORD>
      </PRODUCT_DETAILS>
      <PRODUCT_FEATURES>
        <REFERENCE_FEATURE_SYSTEM_NAME>ECLASS_9.0</REFERENCE_FEATURE_SYSTEM_NAME>
        <REFERENCE_FEATURE_GROUP_ID>27-14-11-41</REFERENCE_FEATURE_GROUP_ID>
        <FEATURE><FTEMPLATE><FT_ID>F-WIDTH</FT_ID><FT_NAME>Breite</FT_NAME></FTEMPLATE>` +
  `<FVALUE>6.1</FVALUE><FUNIT>MMT</FUNIT></FEATURE>
        <FEATURE><FT_IDREF>F-CONN</FT_IDREF><VALUE_IDREF>V-SCREW</VALUE_IDREF></FEATURE>
        <FEATURE_GROUP>
          <REFERENCE_FEATURE_GROUP_ID>B-MAKER</REFERENCE_FEATURE_GROUP_ID>
          <FEATURE><FTEMPLATE><FT_ID>F-MAKER</FT_ID><FT_NAME>Hersteller-Name</FT_NAME></FTEMPLATE>` +
  `<FVALUE>Klemmwerk</FVALUE></FEATURE>
        </FEATURE_GROUP>
      </PRODUCT_FEATURES>
      <PRODUCT_FEATURES><FEATURE><FNAME>Farbe</FNAME><FVALUE>grau</FVALUE></FEATURE></PRODUCT_FEATURES>
      <PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></PRODUCT_ORDER_DETAILS>
      <PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_customer"><PRICE_AMOUNT>0.84</PRICE_AMOUNT>` +
  `<TAX>0.19</TAX></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS>
      <PRODUCT_LOGISTIC_DETAILS>` +
  `<PRODUCT_DIMENSIONS><WEIGHT>0.0162</WEIGHT></PRODUCT_DIMENSIONS></PRODUCT_LOGISTIC_DETAILS>
    </PRODUCT>
  </T_NEW_CATALOG>
</BMECAT>
`;

describeEachDatabase<ContentTables>('BMEcat features, classifications, keywords and weight over HTTP', (getDb) => {
  let t: TestContentApp;
  let detail: ArticleDetailReply;
  beforeAll(async () => {
    if (!shop) throw new Error('the demo catalog has no labtools shop');
    t = await buildTestContentApp(getDb(), { articles: 10 });
    const result = await importCatalog(t.backend, Readable.from([CATALOG]), { format: 'bmecat', shop });
    expect(result).toMatchObject({ imported: 1, failed: [] });
    const response = await t.get(`/api/articles/${encodeURIComponent('labtools:DK-4')}`);
    expect(response.statusCode).toBe(200);
    detail = response.json<ArticleDetailReply>();
  });
  afterAll(async () => {
    await t?.app.close();
  });

  it('sends every feature: advanced ones named from the file, grouped ones, ones without a system', () => {
    expect(detail.articleFeatures).toEqual([
      {
        reference: { systemName: 'ECLASS-9.0', groupId: '27141141', groupName: 'Durchgangsklemme' },
        features: [
          { name: 'Breite', values: ['6.1'], unit: 'MMT', order: 1, featureId: 'F-WIDTH' },
          { name: 'Anschlussart', values: ['Schraubanschluss'], order: 2, featureId: 'F-CONN' },
        ],
      },
      {
        reference: { systemName: 'ECLASS-9.0', groupId: 'B-MAKER' },
        features: [{ name: 'Hersteller-Name', values: ['Klemmwerk'], order: 1, featureId: 'F-MAKER' }],
      },
      { reference: { systemName: 'none', groupId: 'none' }, features: [{ name: 'Farbe', values: ['grau'], order: 1 }] },
    ]);
  });

  it('sends the keywords and the weight in the article detail', () => {
    expect(detail).toMatchObject({
      keywords: ['Reihenklemme', 'terminal block'],
      keywordsGroupedByLanguage: [
        { lang: 'de', values: ['Reihenklemme'] },
        { lang: 'en', values: ['terminal block'] },
      ],
      details: { weight: { quantity: { value: 162, decimalDigits: 4 }, unit: 'KGM' } },
    });
  });

  it('sends a detail that matches its OpenAPI description', async () => {
    const check = createOpenApiReplyCheck((await t.app.inject({ method: 'GET', url: '/openapi.json' })).json());
    const reply = await t.get(`/api/articles/${encodeURIComponent('labtools:DK-4')}`);
    expect(check('GET', '/api/articles/{articleId}', reply)).toEqual([]);
  });
});
