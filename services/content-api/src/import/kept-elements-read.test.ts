import { describe, expect, it } from 'vitest';
import { BmecatItemReader } from './bmecat-reader.js';
import { KEPT_DOCUMENT, KEPT_ITEM, KEPT_PRICE_ITEM, type Kept } from './unkept-elements.js';

/**
 * The table of elements Triad keeps (`unkept-elements.ts`) is written by hand beside the reader.
 * An element in the table that the reader does not read would be dropped without a word: neither
 * imported nor warned of. This derives the table's truth from the reader: for each element the
 * table keeps, an item holding it must read differently from the same item without it.
 */

/** Every path from the item to an element the table keeps whole (a text, or its children none kept). */
function keptLeaves(kept: Kept, above: readonly string[] = []): string[][] {
  return Object.entries(kept).flatMap(([name, below]) =>
    Object.keys(below).length === 0 ? [[...above, name]] : keptLeaves(below, [...above, name]),
  );
}

/** A value of each element the reader takes as what it is (numbers, codes, dates); others get a word. */
const SAMPLES: Readonly<Record<string, string>> = {
  PRICE_AMOUNT: '12.34',
  TAX: '0.07',
  PRICE_FACTOR: '0.5',
  LOWER_BOUND: '5',
  QUANTITY_MIN: '3',
  QUANTITY_INTERVAL: '2',
  PRICE_QUANTITY: '10',
  NO_CU_PER_OU: '6',
  DELIVERY_TIME: '4',
  WEIGHT: '1.5',
  FORDER: '2',
  ORDER_UNIT: 'PK',
  CONTENT_UNIT: 'MTR',
  PRICE_CURRENCY: 'CHF',
  TERRITORY: 'AT',
  DATE: '2031-07-15',
  TIME: '13:57:00',
  TIMEZONE: '+02:00',
  // Only a vat tax (or one without a type) is the price's tax: another type changes which is taken.
  TAX_TYPE: 'other',
  TAX_CATEGORY: 'zero_rate',
  // Not the type the source's name gives (which a missing MIME_TYPE is taken from).
  MIME_TYPE: 'image/webp',
  MIME_PURPOSE: 'detail',
  REFERENCE_FEATURE_SYSTEM_NAME: 'ECLASS-9.0',
  COUNTRY_OF_ORIGIN: 'AT',
};

/** Attributes the elements on the way take (a price needs its type, a date what it dates). */
const ATTRIBUTES: Readonly<Record<string, string>> = {
  ARTICLE_PRICE: ' price_type="net_customer"',
  PRODUCT_PRICE: ' price_type="net_customer"',
  DATETIME: ' type="valid_start_date"',
  ARTICLE_REFERENCE: ' type="accessories"',
  PRODUCT_REFERENCE: ' type="accessories"',
};

/** Siblings an element is read with (a time belongs to a date, a media type to a source). */
const COMPANIONS: Readonly<Record<string, string>> = {
  TIME: '<DATE>2031-07-15</DATE>',
  TIMEZONE: '<DATE>2031-07-15</DATE><TIME>13:57:00</TIME>',
  MIME_TYPE: '<MIME_SOURCE>a.png</MIME_SOURCE>',
  MIME_PURPOSE: '<MIME_SOURCE>a.png</MIME_SOURCE>',
  MIME_DESCR: '<MIME_SOURCE>a.png</MIME_SOURCE>',
  MIME_ALT: '<MIME_SOURCE>a.png</MIME_SOURCE>',
  TAX_TYPE: '<TAX>0.07</TAX>',
  // The value's details stand in for a value id the file does not define.
  FVALUE_DETAILS: '<VALUE_IDREF>V1</VALUE_IDREF>',
  // A block of nothing but a second group id is no classification.
  REFERENCE_FEATURE_GROUP_ID2: '<REFERENCE_FEATURE_SYSTEM_NAME>ECLASS-9.0</REFERENCE_FEATURE_SYSTEM_NAME>',
};

/** Children an element on the way is read with: a validity date dates the prices beside it. */
const HOLDS: Readonly<Record<string, string>> = {
  ARTICLE_PRICE_DETAILS: '<ARTICLE_PRICE price_type="net_customer"><PRICE_AMOUNT>1</PRICE_AMOUNT></ARTICLE_PRICE>',
  PRODUCT_PRICE_DETAILS: '<PRODUCT_PRICE price_type="net_customer"><PRICE_AMOUNT>1</PRICE_AMOUNT></PRODUCT_PRICE>',
};

/** An item holding the element at `path` (below the item) with `value`, or only the elements around it. */
function itemXml(path: readonly string[], value: string | undefined): string {
  const leaf = path[path.length - 1]!;
  let inner = (COMPANIONS[leaf] ?? '') + (value === undefined ? '' : `<${leaf}>${value}</${leaf}>`);
  for (const [i, name] of [...path.slice(0, -1).entries()].reverse()) {
    const beside = path[i + 1]?.endsWith('_PRICE') ? '' : (HOLDS[name] ?? '');
    inner = `<${name}${ATTRIBUTES[name] ?? ''}>${beside}${inner}</${name}>`;
  }
  const id = path[0] === 'SUPPLIER_AID' || path[0] === 'SUPPLIER_PID' ? '' : '<SUPPLIER_AID>X-1</SUPPLIER_AID>';
  return `<ARTICLE>${id}${inner}</ARTICLE>`;
}

/** What the reader makes of one item, lines left out. */
function read(item: string, transaction: string): string {
  const reader = new BmecatItemReader();
  const xml =
    '<BMECAT version="1.2"><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CURRENCY>EUR</CURRENCY></CATALOG></HEADER>' +
    `<${transaction}>${item}</${transaction}></BMECAT>`;
  const items = reader.feed(xml);
  reader.end();
  expect(items).toHaveLength(1);
  const { line: _line, ...rest } = items[0]!;
  return JSON.stringify(rest);
}

describe.each([
  ['T_NEW_CATALOG', KEPT_ITEM],
  ['T_UPDATE_PRICES', KEPT_PRICE_ITEM],
] as const)('every element %s keeps is read', (transaction, kept) => {
  const leaves = keptLeaves(kept);

  it('lists elements of both BMEcat versions', () => {
    expect(leaves.length).toBeGreaterThan(transaction === 'T_UPDATE_PRICES' ? 15 : 60);
  });

  it('reads each one: an item with it reads differently from the item without it', () => {
    const unread = leaves
      .filter((path) => {
        const leaf = path[path.length - 1]!;
        const value = SAMPLES[leaf] ?? `Zq ${leaf.toLowerCase()}`;
        return read(itemXml(path, value), transaction) === read(itemXml(path, undefined), transaction);
      })
      .map((path) => path.join('/'));
    expect(unread).toEqual([]);
  });
});

describe('every element of the header the table keeps is read', () => {
  const header = KEPT_DOCUMENT.BMECAT?.HEADER ?? {};
  const leaves = keptLeaves(header);
  /** Header values that change what the items read or what is kept of the catalog. */
  const values: Readonly<Record<string, string>> = { LANGUAGE: 'eng', CURRENCY: 'CHF', DATE: '2031-07-15' };
  const companions: Readonly<Record<string, string>> = {
    TIME: '<DATE>2031-07-15</DATE>',
    TIMEZONE: '<DATE>2031-07-15</DATE><TIME>13:57:00</TIME>',
  };
  // An item whose texts take the header's language, its price the currency, its image the media root.
  const item =
    '<ARTICLE><SUPPLIER_AID>X-1</SUPPLIER_AID><ARTICLE_DETAILS><DESCRIPTION_SHORT>x</DESCRIPTION_SHORT>' +
    '</ARTICLE_DETAILS><ARTICLE_PRICE_DETAILS><ARTICLE_PRICE price_type="net_customer"><PRICE_AMOUNT>1' +
    '</PRICE_AMOUNT></ARTICLE_PRICE></ARTICLE_PRICE_DETAILS><MIME_INFO><MIME><MIME_SOURCE>a.png</MIME_SOURCE>' +
    '</MIME></MIME_INFO></ARTICLE>';
  const readHeader = (path: readonly string[], value: string | undefined) => {
    const leaf = path[path.length - 1]!;
    let inner = (companions[leaf] ?? '') + (value === undefined ? '' : `<${leaf}>${value}</${leaf}>`);
    for (const name of path.slice(0, -1).reverse()) inner = `<${name}>${inner}</${name}>`;
    const reader = new BmecatItemReader();
    const items = reader.feed(
      `<BMECAT version="1.2"><HEADER>${inner}</HEADER><T_NEW_CATALOG>${item}</T_NEW_CATALOG></BMECAT>`,
    );
    reader.end();
    return JSON.stringify({ catalog: reader.catalog, items });
  };

  it('reads each one: a header with it reads differently from the header without it', () => {
    expect(leaves.length).toBeGreaterThan(10);
    const unread = leaves
      .filter((path) => {
        const leaf = path[path.length - 1]!;
        const value = values[leaf] ?? `Zq ${leaf.toLowerCase()}`;
        return readHeader(path, value) === readHeader(path, undefined);
      })
      .map((path) => path.join('/'));
    expect(unread).toEqual([]);
  });
});
