import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { generateCatalog } from '../demo/generate-catalog.js';
import type { BusinessShop } from '../model/article.js';
import type { ContentTables } from '../migrations/content-tables.js';
import type { SearchBackend } from '../search/search-backend.js';
import { loadTestCatalog } from '../test-support/content-test-app.js';
import { importCatalog } from './import-catalog.js';
import { ImportModeError } from './resolve-import-mode.js';

// BMEcat 2005 documents written for these tests: the header is lines 1-3, the transaction's
// start tag line 4, so the n-th item is on line 4 + n.
const HEADER =
  '<?xml version="1.0" encoding="UTF-8"?>\n<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">\n' +
  '<HEADER><CATALOG><LANGUAGE default="true">eng</LANGUAGE><CATALOG_ID>U</CATALOG_ID>' +
  '<CATALOG_VERSION>2</CATALOG_VERSION><CURRENCY>EUR</CURRENCY></CATALOG></HEADER>\n';
const document = (transaction: string, items: readonly string[]) =>
  `${HEADER}<${transaction}>\n${items.join('\n')}\n</${transaction}>\n</BMECAT>\n`;
const prices = (...ladder: readonly [number, string][]) =>
  '<PRODUCT_PRICE_DETAILS>' +
  ladder
    .map(
      ([lowerBound, amount]) =>
        `<PRODUCT_PRICE price_type="net_customer"><PRICE_AMOUNT>${amount}</PRICE_AMOUNT><TAX>0.19</TAX>` +
        `<LOWER_BOUND>${lowerBound}</LOWER_BOUND></PRODUCT_PRICE>`,
    )
    .join('') +
  '</PRODUCT_PRICE_DETAILS>';
const product = (id: string, description: string, amount: string, mode?: string) =>
  `<PRODUCT${mode ? ` mode="${mode}"` : ''}><SUPPLIER_PID>${id}</SUPPLIER_PID>` +
  `<PRODUCT_DETAILS><DESCRIPTION_SHORT>${description}</DESCRIPTION_SHORT><MANUFACTURER_NAME>Acme</MANUFACTURER_NAME>` +
  '</PRODUCT_DETAILS><PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></PRODUCT_ORDER_DETAILS>' +
  `${prices([1, amount])}</PRODUCT>`;
/** A price-only item: no descriptions, no units. */
const priceItem = (id: string, details: string) => `<PRODUCT><SUPPLIER_PID>${id}</SUPPLIER_PID>${details}</PRODUCT>`;

const labtools = generateCatalog({ articles: 0 }).shops.find((s) => s.id === 'labtools')!;
const shop: BusinessShop = { ...labtools, id: 'supplier-updates', name: 'Supplier updates' };

const NEW_CATALOG = document('T_NEW_CATALOG', [
  product('U-1', 'Widget one', '10.00'),
  product('U-2', 'Widget two', '20.00'),
  product('U-3', 'Widget three', '30.00'),
  product('U-4', 'Widget four', '40.00'),
]);

describeEachDatabase<ContentTables>('importCatalog of BMEcat transactions', (getDb) => {
  let backend: SearchBackend;
  const run = (xml: string, options: Partial<Parameters<typeof importCatalog>[2]> = {}) =>
    importCatalog(backend, Readable.from([xml]), { format: 'bmecat', shop, ...options });
  const byPrice = async () =>
    (
      await backend.search({
        words: [],
        shopIds: [shop.id],
        sort: [{ field: 'price', descending: false }],
        limit: 100,
        offset: 0,
        facets: [],
      })
    ).hits.map((h) => h.article.supplierArticleId);
  /** What a refused import must leave as it was. */
  const snapshot = async () => ({
    count: await backend.countArticles(),
    hash: await backend.currentHash(),
    version: (await backend.shopVersions()).get(shop.id),
    order: await byPrice(),
    articles: await Promise.all(['U-1', 'U-2', 'U-3', 'U-4'].map((id) => backend.findArticle(`${shop.id}:${id}`))),
  });

  beforeAll(async () => {
    backend = await loadTestCatalog(getDb(), 40);
  });
  beforeEach(async () => {
    const result = await run(NEW_CATALOG);
    expect(result).toMatchObject({ committed: true, mode: 'replace', imported: 4 });
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('changes only prices with T_UPDATE_PRICES, keeps the count, refuses an unknown article by line', async () => {
    const count = await backend.countArticles();
    const before = await backend.findArticle(`${shop.id}:U-1`);
    const xml = document('T_UPDATE_PRICES', [
      priceItem(
        'U-1',
        '<PRODUCT_PRICE_DETAILS><DATETIME type="valid_start_date"><DATE>2020-01-01</DATE></DATETIME>' +
          prices([1, '50.00'], [10, '45.50']).replace('<PRODUCT_PRICE_DETAILS>', ''),
      ),
      priceItem('U-2', prices([1, '5.00'])),
      priceItem('NOPE', prices([1, '1.00'])),
    ]);
    const result = await run(xml, { maxRejects: { count: 1 } });
    expect(result).toMatchObject({ committed: true, mode: 'prices', imported: 2, deleted: 0 });
    expect(result.failed).toEqual([
      {
        line: 7,
        violations: [
          {
            path: 'SUPPLIER_PID',
            message:
              `shop ${shop.id} has no article NOPE: ` +
              'an update changes only articles the shop holds; import the article itself first',
          },
        ],
      },
    ]);
    expect(await backend.countArticles()).toBe(count);
    const after = await backend.findArticle(`${shop.id}:U-1`);
    expect(after).toEqual({
      ...before,
      blockPrices: [
        { lowerBound: 1, amount: { value: 5000, decimalDigits: 2 } },
        { lowerBound: 10, amount: { value: 4550, decimalDigits: 2 } },
      ],
      priceConditions: { validFrom: '2020-01-01', territories: [], priceType: 'net_customer' },
    });
    // The search's price column follows: U-2 is now the cheapest, U-1 the dearest.
    expect(await byPrice()).toEqual(['U-2', 'U-3', 'U-4', 'U-1']);
  });

  it('refuses price updates in another currency than the shop, or only valid before or after now', async () => {
    const before = await snapshot();
    const xml = document('T_UPDATE_PRICES', [
      priceItem('U-1', prices([1, '50.00']).replace('<TAX>', '<PRICE_CURRENCY>USD</PRICE_CURRENCY><TAX>')),
      priceItem(
        'U-2',
        '<PRODUCT_PRICE_DETAILS><DATETIME type="valid_end_date"><DATE>2001-12-31</DATE></DATETIME>' +
          prices([1, '5.00']).replace('<PRODUCT_PRICE_DETAILS>', ''),
      ),
    ]);
    const result = await run(xml);
    expect(result.committed).toBe(false);
    expect(result.failed.map((f) => [f.line, f.violations.map((v) => v.message)])).toEqual([
      [
        5,
        [
          `PRODUCT_PRICE price_type="net_customer": PRICE_CURRENCY USD: shop ${shop.id} accepts EUR ` +
            '(import the catalog into a shop in USD, or give prices in EUR)',
        ],
      ],
      [6, ['every PRODUCT_PRICE price_type="net_customer" is out of its validity now: valid_end_date 2001-12-31']],
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it("applies each T_UPDATE_PRODUCTS item's mode: new (also when absent), update, delete", async () => {
    const count = await backend.countArticles();
    const xml = document('T_UPDATE_PRODUCTS', [
      product('U-5', 'Widget five', '25.00'),
      product('U-6', 'Widget six', '26.00', 'new'),
      product('U-1', 'Gadget renamed', '35.00', 'update'),
      `<PRODUCT mode="delete"><SUPPLIER_PID>U-3</SUPPLIER_PID></PRODUCT>`,
      `<PRODUCT mode="delete"><SUPPLIER_PID>NOPE</SUPPLIER_PID></PRODUCT>`,
      product('U-7', 'Widget seven', '1.00', 'rename'),
    ]);
    const result = await run(xml, { maxRejects: { count: 2 } });
    expect(result).toMatchObject({ committed: true, mode: 'products', imported: 3, deleted: 1, alreadyAbsent: 1 });
    // The delete of an article the shop never held is no refusal: the shop is already as asked.
    expect(result.failed.map((f) => [f.line, f.violations[0]!.message])).toEqual([
      [10, 'mode="rename" is none of new, update, delete'],
    ]);
    expect(await backend.countArticles()).toBe(count + 1);
    expect(await byPrice()).toEqual(['U-2', 'U-5', 'U-6', 'U-1', 'U-4']);
    expect((await backend.findArticle(`${shop.id}:U-1`))?.description).toBe('Gadget renamed');
    expect(await backend.findArticle(`${shop.id}:U-3`)).toBeUndefined();
  });

  it('changes nothing when a T_UPDATE_PRICES or T_UPDATE_PRODUCTS file has every record refused', async () => {
    const before = await snapshot();
    const pricesRefused = await run(
      document('T_UPDATE_PRICES', [priceItem('NOPE-1', prices([1, '1.00'])), priceItem('U-2', '')]),
    );
    expect(pricesRefused).toMatchObject({ committed: false, mode: 'prices', imported: 0 });
    expect(pricesRefused.failed.map((f) => [f.line, f.violations[0]!.path])).toEqual([
      [5, 'SUPPLIER_PID'],
      [6, ''],
    ]);
    expect(await snapshot()).toEqual(before);
    const productsRefused = await run(
      document('T_UPDATE_PRODUCTS', [
        `<PRODUCT mode="delete"><SUPPLIER_PID>NOPE-2</SUPPLIER_PID></PRODUCT>`,
        `<PRODUCT mode="update"><SUPPLIER_PID>U-1</SUPPLIER_PID></PRODUCT>`,
      ]),
    );
    expect(productsRefused).toMatchObject({ committed: false, mode: 'products' });
    // The absent article's delete is not refused; the bare update is, and 1 of 2 is over 5 %.
    expect(productsRefused.failed.map((f) => f.line)).toEqual([6]);
    expect(await snapshot()).toEqual(before);
  });

  it('names each missing element once: no PRODUCT_DETAILS, an ORDER_UNIT given empty', async () => {
    const bare =
      '<PRODUCT><SUPPLIER_PID>U-9</SUPPLIER_PID><PRODUCT_ORDER_DETAILS><ORDER_UNIT><![CDATA[]]></ORDER_UNIT>' +
      `</PRODUCT_ORDER_DETAILS>${prices([1, '9.00'])}</PRODUCT>`;
    const result = await run(document('T_UPDATE_PRODUCTS', [bare]), { maxRejects: { count: 1 } });
    expect(result.failed.map((f) => [f.supplierArticleId, f.violations])).toEqual([
      [
        'U-9',
        [
          {
            path: 'PRODUCT_DETAILS/DESCRIPTION_SHORT',
            message: expect.stringMatching(/^is missing or empty: /) as string,
          },
          {
            path: 'PRODUCT_ORDER_DETAILS/ORDER_UNIT',
            message: expect.stringMatching(/^is missing or empty: /) as string,
          },
        ],
      ],
    ]);
  });

  it('refuses a mode that contradicts the file, changing nothing', async () => {
    const before = await snapshot();
    const xml = document('T_UPDATE_PRICES', [priceItem('U-1', prices([1, '2.00']))]);
    const refused = run(xml, { mode: 'replace' });
    await expect(refused).rejects.toThrow(ImportModeError);
    await expect(refused).rejects.toThrow(
      'the file is a BMEcat T_UPDATE_PRICES, which is mode prices; mode replace contradicts it',
    );
    await expect(run(NEW_CATALOG, { mode: 'products' })).rejects.toThrow('mode products contradicts it');
    expect(await snapshot()).toEqual(before);
    expect(await run(xml, { mode: 'prices' })).toMatchObject({ committed: true, imported: 1 });
  });
});
