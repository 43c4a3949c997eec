import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bmecatCatalog, jsonLinesCatalog } from '../demo/catalog-writers.js';
import { generateCatalog } from '../demo/generate-catalog.js';
import type { ParsedCatalogItem } from './catalog-parser.js';
import { BmecatItemReader } from './bmecat-reader.js';
import { parseCatalog } from './parse-catalog.js';
import { checkRecordLimits, RECORD_LIMITS } from './record-limits.js';
import { XmlEventReader } from './xml-event-reader.js';

const articles = [...generateCatalog({ articles: 60, seed: 4 }).articles()].filter(
  (a) => a.descriptionsLong.length > 0,
);

const MiB = 1024 * 1024;

/** `count` chunks of 1 MiB of `x`, made as they are read (nothing that size is written anywhere). */
function* filler(count: number): Generator<string> {
  const chunk = 'x'.repeat(MiB);
  for (let i = 0; i < count; i += 1) yield chunk;
}

/** A BMEcat 2005 file of three articles whose second one's first DESCRIPTION_LONG holds `mib` MiB more. */
function* bmecatWithLongText(mib: number): Generator<string> {
  let n = 0;
  for (const chunk of bmecatCatalog(articles.slice(0, 3), { catalogId: 'c', currency: 'EUR' })) {
    if (chunk.startsWith('<PRODUCT>') && ++n === 2) {
      const at = chunk.indexOf('</DESCRIPTION_LONG>');
      yield chunk.slice(0, at);
      yield* filler(mib);
      yield chunk.slice(at);
    } else yield chunk;
  }
}

async function collect(source: Iterable<string>, options: Parameters<typeof parseCatalog>[1]) {
  const out: ParsedCatalogItem[] = [];
  for await (const item of parseCatalog(Readable.from(source), options)) out.push(item);
  return out;
}

const ids = (items: readonly ParsedCatalogItem[]) =>
  items.map((i) => ('article' in i ? i.article.supplierArticleId : 'refused'));

describe('catalog record limits', () => {
  for (const thread of ['inline', 'worker'] as const) {
    it(`refuses a BMEcat item with a 24 MiB DESCRIPTION_LONG by element path, reads the rest (${thread})`, async () => {
      const items = await collect(bmecatWithLongText(24), { format: 'bmecat', shopId: 'labtools', thread });
      expect(ids(items)).toEqual([articles[0]!.supplierArticleId, 'refused', articles[2]!.supplierArticleId]);
      expect(items[1]).toEqual({
        line: 6,
        violations: [
          {
            path: '/PRODUCT/PRODUCT_DETAILS/DESCRIPTION_LONG',
            message: expect.stringMatching(
              /^DESCRIPTION_LONG: the text is longer than 65536 characters, the most imported for DESCRIPTION_LONG/,
            ) as string,
          },
        ],
      });
    });

    it(`refuses a JSON Lines record on an 8 MiB line by its line, and reads the rest (${thread})`, async () => {
      const lines = [...jsonLinesCatalog(articles.slice(0, 3))];
      const source = function* () {
        yield lines[0]!;
        yield '{"supplierArticleId":"huge","description":"';
        yield* filler(8);
        yield '"}\n';
        yield* lines.slice(1);
      };
      const items = await collect(source(), { format: 'jsonl', shopId: 'labtools', thread });
      expect(ids(items)).toEqual([
        articles[0]!.supplierArticleId,
        'refused',
        articles[1]!.supplierArticleId,
        articles[2]!.supplierArticleId,
      ]);
      expect(items[1]).toMatchObject({
        line: 2,
        violations: [
          { path: '', message: expect.stringMatching(/^the line is longer than 2097152 characters/) as string },
        ],
      });
      expect(items.map((i) => i.line)).toEqual([1, 2, 3, 4]);
    });
  }

  const PRICE =
    '<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></PRODUCT_ORDER_DETAILS>\n' +
    '<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_customer">' +
    '<PRICE_AMOUNT>2.50</PRICE_AMOUNT><TAX>0.19</TAX></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS>';

  /**
   * A BMEcat 2005 file of two articles, the first with `features` features of 5 elements each,
   * indented by `indent`, in chunks of about 64 KiB as a file is read.
   */
  function* bmecatWithFeatures(features: number, indent: number): Generator<string> {
    const pad = `\n${' '.repeat(indent)}`;
    yield [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<BMECAT version="2005"><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CURRENCY>EUR</CURRENCY></CATALOG></HEADER>',
      '<T_NEW_CATALOG>',
      '<PRODUCT><SUPPLIER_PID>BIG-1</SUPPLIER_PID>' +
        '<PRODUCT_DETAILS><DESCRIPTION_SHORT>Reihenklemme</DESCRIPTION_SHORT></PRODUCT_DETAILS>',
      '<PRODUCT_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>ECLASS-9.0</REFERENCE_FEATURE_SYSTEM_NAME>' +
        '<REFERENCE_FEATURE_GROUP_ID>27141120</REFERENCE_FEATURE_GROUP_ID>',
    ].join('\n');
    let chunk = '';
    for (let i = 0; i < features; i += 1) {
      if (chunk.length > 65_536) {
        yield chunk;
        chunk = '';
      }
      chunk +=
        `${pad}<FEATURE>${pad}  <FNAME>Merkmal ${i}</FNAME>${pad}  <FVALUE>${i}</FVALUE>` +
        `${pad}  <FUNIT>MMT</FUNIT>${pad}  <FORDER>${i}</FORDER>${pad}</FEATURE>`;
    }
    yield chunk;
    yield [
      '',
      '</PRODUCT_FEATURES>',
      PRICE,
      '</PRODUCT>',
      '<PRODUCT><SUPPLIER_PID>SMALL-2</SUPPLIER_PID>',
      '<PRODUCT_DETAILS><DESCRIPTION_SHORT>Brücke</DESCRIPTION_SHORT></PRODUCT_DETAILS>',
      PRICE,
      '</PRODUCT>',
      '</T_NEW_CATALOG>',
      '</BMECAT>',
      '',
    ].join('\n');
  }

  for (const thread of ['inline', 'worker'] as const) {
    it(`imports an item of 45,000 elements and 2.4 million characters (${thread})`, async () => {
      const file = [...bmecatWithFeatures(9_000, 30)].join('');
      expect(file.length).toBeGreaterThan(2_400_000);
      const items = await collect(bmecatWithFeatures(9_000, 30), { format: 'bmecat', shopId: 'labtools', thread });
      expect(items.map((i) => ('article' in i ? i.article.supplierArticleId : i))).toEqual(['BIG-1', 'SMALL-2']);
      expect(items[1]!.line).toBe(file.slice(0, file.indexOf('<PRODUCT><SUPPLIER_PID>SMALL-2')).split('\n').length);
    });

    it(`refuses an item of over ${RECORD_LIMITS.elements} elements by its path (${thread})`, async () => {
      const items = await collect(bmecatWithFeatures(RECORD_LIMITS.elements / 5, 0), {
        format: 'bmecat',
        shopId: 'labtools',
        thread,
      });
      expect(ids(items)).toEqual(['refused', 'SMALL-2']);
      expect(items[0]).toEqual({
        line: 4,
        violations: [
          {
            path: '/PRODUCT/PRODUCT_FEATURES/FEATURE/FUNIT',
            message: expect.stringMatching(
              /^FUNIT \(\d+ lines below the item's start tag\): the item has more than 200000 elements$/,
            ) as string,
          },
        ],
      });
    });
  }

  it('refuses fields over their limits by JSON pointer: long text, short text, ids, keyword and price counts', () => {
    const [article] = articles;
    const record = {
      ...article!,
      supplierArticleId: 'a'.repeat(RECORD_LIMITS.idChars + 1),
      descriptions: [{ lang: 'en', value: 'b'.repeat(RECORD_LIMITS.shortTextChars + 1) }],
      descriptionsLong: [{ lang: 'en', value: 'c'.repeat(RECORD_LIMITS.longTextChars + 1) }],
      keywords: [{ lang: 'en', values: Array.from({ length: RECORD_LIMITS.keywords + 1 }, (_, i) => `k${i}`) }],
      blockPrices: Array.from({ length: RECORD_LIMITS.prices + 1 }, (_, i) => ({
        lowerBound: i + 1,
        amount: { value: 1, decimalDigits: 0 },
      })),
    };
    expect(checkRecordLimits(record).map((v) => v.path)).toEqual([
      '/supplierArticleId',
      '/descriptions/0/value',
      '/descriptionsLong/0/value',
      '/blockPrices',
      '/keywords',
    ]);
    expect(checkRecordLimits(article)).toEqual([]);
  });

  describe('BMEcat records the reader vouches for (not walked)', () => {
    /** A BMEcat 2005 file of the first generated article, `change` made to its PRODUCT's text. */
    const fileOf = (change: (product: string) => string, header = '') =>
      [...bmecatCatalog(articles.slice(0, 1), { catalogId: 'c', currency: 'EUR' })]
        .map((chunk) =>
          chunk.startsWith('<PRODUCT>') ? change(chunk) : chunk.replace('<CURRENCY>', `${header}<CURRENCY>`),
        )
        .join('');
    const recordOf = (xml: string) => {
      const items = new BmecatItemReader().feed(xml);
      expect(items).toHaveLength(1);
      const item = items[0]!;
      if (!('record' in item)) throw new Error(`refused: ${item.error}`);
      return item.record;
    };
    const x = (n: number) => 'x'.repeat(n);
    const inDetails = (xml: string) => (p: string) => p.replace('</PRODUCT_DETAILS>', `${xml}</PRODUCT_DETAILS>`);
    const priced = (xml: string) => (p: string) => p.replace('<PRODUCT_PRICE ', `${xml}<PRODUCT_PRICE `);

    const cases: [string, (product: string) => string, string[], string?][] = [
      ['as generated', (p) => p, []],
      [
        'long texts kept in members as long',
        inDetails(`<DESCRIPTION_LONG lang="eng">${x(5000)}</DESCRIPTION_LONG>`),
        [],
      ],
      [
        'a validity date, time and zone joined',
        priced(
          `<DATETIME type="valid_start_date"><DATE>2020-01-01${x(100)}</DATE><TIME>${x(100)}</TIME>` +
            `<TIMEZONE>${x(100)}</TIMEZONE></DATETIME>`,
        ),
        ['/priceOffers/0/validFrom'],
      ],
      [
        'a long attribute',
        inDetails(`<INTERNATIONAL_PID type="${x(300)}">1</INTERNATIONAL_PID>`),
        ['/internationalArticleIds/1/type'],
      ],
      [
        'many elements',
        inDetails(Array.from({ length: 120 }, () => '<BUYER_PID type="b">1</BUYER_PID>').join('')),
        ['/buyerArticleIds'],
      ],
      [
        'a group id over its member limit',
        (p) =>
          p.replace(
            '</REFERENCE_FEATURE_GROUP_ID>',
            `</REFERENCE_FEATURE_GROUP_ID><REFERENCE_FEATURE_GROUP_ID2>${x(5000)}</REFERENCE_FEATURE_GROUP_ID2>`,
          ),
        ['/classifications/0/groupId2'],
      ],
      [
        'a media source behind the MIME_ROOT',
        (p) => p.replace(/<MIME_SOURCE>[^<]*</, `<MIME_SOURCE>${x(2040)}<`),
        ['/images/0/href'],
        '<MIME_ROOT>https://example.com/media/</MIME_ROOT>',
      ],
      [
        'a long media source without a MIME_ROOT',
        (p) => p.replace(/<MIME_SOURCE>[^<]*</, `<MIME_SOURCE>${x(2040)}<`),
        [],
      ],
    ];
    for (const [name, change, paths, header] of cases)
      it(`finds what a walk finds: ${name}`, () => {
        const record = recordOf(fileOf(change, header));
        const found = checkRecordLimits(record);
        // A copy is no record the reader read: always walked.
        expect(found).toEqual(checkRecordLimits(structuredClone(record)));
        expect(found.map((v) => v.path)).toEqual(paths);
      });

    it('answers for a plain item without walking its record', () => {
      const record = recordOf(fileOf((p) => p));
      record.supplierArticleId = x(300);
      expect(checkRecordLimits(record)).toEqual([]);
      expect(checkRecordLimits(structuredClone(record)).map((v) => v.path)).toEqual(['/supplierArticleId']);
    });
  });

  it('hands a long text node over in parts: the reader never holds much more than one chunk of it', () => {
    const reader = new XmlEventReader();
    let text = 0;
    let held = 0;
    const handler = { open() {}, close() {}, text: (t: string) => void (text += t.length) };
    reader.feed('<a>', handler);
    for (const chunk of filler(16)) {
      reader.feed(chunk, handler);
      held = Math.max(held, reader.pending.length);
    }
    reader.feed('</a>', handler);
    reader.end();
    expect(text).toBe(16 * MiB);
    expect(held).toBeLessThanOrEqual(128 * 1024);
  });
});
