import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseCatalog, type ParseCatalogOptions } from './parse-catalog.js';
import type { XmlNode } from './bmecat-node.js';
import { MISNAMED_ROOT, UNKEPT_ELEMENT, UnkeptElements, type UnkeptElement } from './unkept-elements.js';
import type { CatalogHeader } from '../model/catalog-header.js';

/** An article with a segment and a supplier extension (every third one), one line per element. */
const article = (i: number) =>
  [
    '    <ARTICLE>',
    `      <SUPPLIER_AID>A-${i}</SUPPLIER_AID>`,
    '      <ARTICLE_DETAILS>',
    `        <DESCRIPTION_SHORT>Article ${i}</DESCRIPTION_SHORT>`,
    '        <SEGMENT>Lab</SEGMENT>',
    '      </ARTICLE_DETAILS>',
    '      <ARTICLE_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></ARTICLE_ORDER_DETAILS>',
    '      <ARTICLE_PRICE_DETAILS><ARTICLE_PRICE price_type="net_customer">',
    '        <PRICE_AMOUNT>1.50</PRICE_AMOUNT><TAX>0.19</TAX>',
    '      </ARTICLE_PRICE></ARTICLE_PRICE_DETAILS>',
    ...(i % 3 === 0
      ? [
          '      <USER_DEFINED_EXTENSIONS>',
          '        <UDX.SHOP.COLOUR><UDX.SHOP.RGB>00ff00</UDX.SHOP.RGB></UDX.SHOP.COLOUR>',
          '      </USER_DEFINED_EXTENSIONS>',
        ]
      : []),
    '    </ARTICLE>',
  ].join('\n');

const ARTICLES = 300;
const HEADER = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<BMECAT version="1.2">',
  '  <HEADER>',
  '    <GENERATOR_INFO>Hand</GENERATOR_INFO>',
  '    <CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>C1</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION>',
  '      <TERRITORY>DE</TERRITORY><TERRITORY>AT</TERRITORY><CURRENCY>EUR</CURRENCY>',
  '      <PRICE_FLAG type="incl_freight">true</PRICE_FLAG>',
  '    </CATALOG>',
  '    <SUPPLIER><SUPPLIER_ID type="duns">31-337-1234</SUPPLIER_ID>',
  '      <SUPPLIER_ID type="iln">4000001000005</SUPPLIER_ID><SUPPLIER_NAME> Lab Supplies </SUPPLIER_NAME>',
  '      <ADDRESS type="supplier"><NAME>Lab</NAME></ADDRESS></SUPPLIER>',
  '  </HEADER>',
  '  <T_NEW_CATALOG>',
];
const BODY = Array.from({ length: ARTICLES }, (_, i) => article(i + 1));
const TAIL = [
  ...Array.from(
    { length: ARTICLES },
    (_, i) =>
      `    <ARTICLE_TO_CATALOGGROUP_MAP><ART_ID>A-${i + 1}</ART_ID><CATALOG_GROUP_ID>G1</CATALOG_GROUP_ID>` +
      '</ARTICLE_TO_CATALOGGROUP_MAP>',
  ),
  '  </T_NEW_CATALOG>',
  '</BMECAT>',
  '',
];
const XML = [...HEADER, ...BODY, ...TAIL].join('\n');
const lines = XML.split('\n');
/** The 1-based line of the first line holding `text`. */
const lineOf = (text: string) => lines.findIndex((l) => l.includes(text)) + 1;

async function unkeptOf(options: Omit<ParseCatalogOptions, 'format' | 'shopId' | 'unkept'>): Promise<UnkeptElement[]> {
  const unkept = new UnkeptElements();
  let catalog: CatalogHeader | undefined;
  // Chunks of 1000 characters: the header and the items are cut anywhere.
  const chunks = Array.from({ length: Math.ceil(XML.length / 1000) }, (_, i) => XML.slice(i * 1000, i * 1000 + 1000));
  let records = 0;
  for await (const item of parseCatalog(Readable.from(chunks), {
    format: 'bmecat',
    shopId: 'lab',
    unkept,
    onTransaction: (_transaction, header) => (catalog = header),
    ...options,
  })) {
    expect(item).toHaveProperty('article');
    records += 1;
  }
  expect(records).toBe(ARTICLES);
  // What the header says of the catalog is kept, not counted: the second SUPPLIER_ID is.
  expect(catalog).toEqual({
    generatorInfo: 'Hand',
    catalogId: 'C1',
    catalogVersion: '1',
    supplierId: '31-337-1234',
    supplierName: 'Lab Supplies',
  });
  return unkept.list();
}

describe('UnkeptElements', () => {
  const expected: UnkeptElement[] = [
    { path: 'HEADER/CATALOG/TERRITORY', count: 2, line: 6 },
    { path: 'HEADER/CATALOG/PRICE_FLAG', count: 1, line: 7 },
    { path: 'HEADER/SUPPLIER/SUPPLIER_ID', count: 1, line: 10 },
    { path: 'HEADER/SUPPLIER/ADDRESS', count: 1, line: 11 },
    { path: 'ARTICLE/ARTICLE_DETAILS/SEGMENT', count: ARTICLES, line: lineOf('<SEGMENT>') },
    {
      path: 'ARTICLE/USER_DEFINED_EXTENSIONS/UDX.SHOP.COLOUR',
      count: ARTICLES / 3,
      line: lineOf('<UDX.SHOP.COLOUR>'),
    },
    {
      path: 'T_NEW_CATALOG/ARTICLE_TO_CATALOGGROUP_MAP',
      count: ARTICLES,
      line: lineOf('<ARTICLE_TO_CATALOGGROUP_MAP>'),
    },
  ];

  it('counts every element not kept, by path, with its first line, on the calling thread', async () => {
    expect(await unkeptOf({ thread: 'inline' })).toEqual(expected);
  });

  it('reads a root written BMEcat as BMECAT, its header kept, and says so in one warning', async () => {
    const misnamed = XML.replace('<BMECAT version', '<BMEcat version').replace('</BMECAT>', '</BMEcat>');
    const unkept = new UnkeptElements();
    let catalog: CatalogHeader | undefined;
    let records = 0;
    for await (const item of parseCatalog(Readable.from([misnamed]), {
      format: 'bmecat',
      shopId: 'lab',
      unkept,
      thread: 'worker',
      workers: 2,
      pieceBytes: 4096,
      onTransaction: (_transaction, header) => (catalog = header),
    })) {
      expect(item).toHaveProperty('article');
      records += 1;
    }
    expect(records).toBe(ARTICLES);
    expect(catalog).toMatchObject({ catalogId: 'C1', supplierName: 'Lab Supplies' });
    const warnings = unkept.warnings();
    expect(warnings[0]).toMatchObject({ kind: MISNAMED_ROOT, path: 'BMEcat', count: 1, line: 2 });
    expect(warnings[0]?.message).toMatch(/BMECAT \(upper case\)/);
    // The rest is what a well-named root gives: the root itself is not reported as not kept.
    expect(warnings.slice(1).map((w) => ({ path: w.path, count: w.count, line: w.line }))).toEqual(expected);
    expect(warnings.slice(1).every((w) => w.kind === UNKEPT_ELEMENT)).toBe(true);
  });

  it('counts the same across pieces read on three workers', async () => {
    expect(await unkeptOf({ thread: 'worker', workers: 3, pieceBytes: 2048 })).toEqual(expected);
  });

  it('counts only what a price update does not keep, and nothing of an item deleted', () => {
    const prices = new UnkeptElements('T_UPDATE_PRICES');
    const node = (name: string, line: number, children: XmlNode[] = [], mode?: string): XmlNode => ({
      name,
      line,
      attributes: mode ? { mode } : {},
      children,
      text: '',
    });
    const item = node('ARTICLE', 1, [
      node('SUPPLIER_AID', 2),
      node('ARTICLE_DETAILS', 3, [node('DESCRIPTION_SHORT', 4)]),
      node('ARTICLE_PRICE_DETAILS', 5, [node('ARTICLE_PRICE', 6, [node('PRICE_AMOUNT', 7)])]),
    ]);
    prices.countItem(item);
    expect(prices.list()).toEqual([{ path: 'ARTICLE/ARTICLE_DETAILS', count: 1, line: 3 }]);
    const products = new UnkeptElements('T_UPDATE_PRODUCTS');
    products.countItem(node('ARTICLE', 1, [node('SUPPLIER_AID', 2), node('SEGMENT', 3)], 'delete'));
    products.countItem(node('ARTICLE', 9, [node('SUPPLIER_AID', 10), node('ARTICLE_DETAILS', 11)]));
    expect(products.list()).toEqual([]);
    products.countItem(node('ARTICLE', 20, [node('SEGMENT', 21)], 'update'));
    expect(products.warnings()).toEqual([
      {
        kind: 'unkept-element',
        path: 'ARTICLE/SEGMENT',
        count: 1,
        line: 21,
        message: 'SEGMENT (once) is not imported: Triad does not keep this element',
      },
    ]);
  });

  it('reports nothing of the feature definitions the reader takes, in any transaction that may hold them', () => {
    const unkept = new UnkeptElements('T_UPDATE_PRODUCTS');
    const outer = (...names: string[]) => unkept.countOuter(['BMECAT', ...names], 3);
    for (const transaction of ['T_NEW_CATALOG', 'T_UPDATE_PRODUCTS', 'T_NEW_PRODUCTDATA']) {
      outer(transaction, 'FEATURE_SYSTEM', 'FEATURE_SYSTEM_NAME');
      outer(transaction, 'FEATURE_SYSTEM', 'FEATURE_GROUP', 'FEATURE_GROUP_NAME');
      outer(transaction, 'FEATURE_SYSTEM', 'FEATURE_GROUP', 'FEATURE_TEMPLATE', 'FT_NAME');
      outer(transaction, 'CLASSIFICATION_SYSTEM', 'CLASSIFICATION_GROUPS', 'CLASSIFICATION_GROUP');
    }
    expect(unkept.list()).toEqual([]);
    // What the definitions hold beside them is still counted.
    outer('T_UPDATE_PRODUCTS', 'FEATURE_SYSTEM', 'FEATURE_SYSTEM_DESCR');
    outer('T_UPDATE_PRICES', 'FEATURE_SYSTEM');
    expect(unkept.list()).toEqual([
      { path: 'T_UPDATE_PRICES/FEATURE_SYSTEM', count: 1, line: 3 },
      { path: 'T_UPDATE_PRODUCTS/FEATURE_SYSTEM/FEATURE_SYSTEM_DESCR', count: 1, line: 3 },
    ]);
    const node = (name: string, children: XmlNode[] = []): XmlNode => ({
      name,
      line: 1,
      attributes: {},
      children,
      text: '',
    });
    unkept.countItem(
      node('PRODUCT', [
        node('PRODUCT_FEATURES', [
          node('FEATURE_GROUP', [node('REFERENCE_FEATURE_GROUP_ID'), node('REFERENCE_FEATURE_GROUP_ID2')]),
        ]),
      ]),
    );
    expect(unkept.list()).toHaveLength(2);
  });

  it('reports nothing of the TAX_DETAILS the price reader takes (type, category, rate)', () => {
    const node = (name: string, children: XmlNode[] = []): XmlNode => ({
      name,
      line: 1,
      attributes: {},
      children,
      text: '',
    });
    const unkept = new UnkeptElements('T_NEW_CATALOG');
    unkept.countItem(
      node('PRODUCT', [
        node('SUPPLIER_PID'),
        node('PRODUCT_PRICE_DETAILS', [
          node('PRODUCT_PRICE', [
            node('PRICE_AMOUNT'),
            node('PRICE_FACTOR'),
            node('TAX_DETAILS', [node('TAX_TYPE'), node('TAX_CATEGORY'), node('TAX'), node('TAX_JURISDICTION')]),
          ]),
        ]),
      ]),
    );
    expect(unkept.list().map((u) => u.path)).toEqual([
      'PRODUCT/PRODUCT_PRICE_DETAILS/PRODUCT_PRICE/TAX_DETAILS/TAX_JURISDICTION',
    ]);
  });
});
