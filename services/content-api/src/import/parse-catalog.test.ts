import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bmecatCatalog, jsonLinesCatalog } from '../demo/catalog-writers.js';
import { generateCatalog } from '../demo/generate-catalog.js';
import { BMECAT_12 } from '../test-support/bmecat-fixtures.js';
import type { ParsedCatalogItem } from './catalog-parser.js';
import { parseCatalog, type ParseCatalogOptions } from './parse-catalog.js';
import { XmlSyntaxError } from './xml-event-reader.js';

const articles = [...generateCatalog({ articles: 120, seed: 4 }).articles()].filter((a) => a.shopId === 'labtools');

async function collect(
  chunks: readonly (string | Buffer)[],
  options: ParseCatalogOptions,
): Promise<ParsedCatalogItem[]> {
  const out: ParsedCatalogItem[] = [];
  for await (const item of parseCatalog(Readable.from(chunks), options)) out.push(item);
  return out;
}

describe('parseCatalog', () => {
  it('gives the same records in file order on three workers as inline, from bytes cut anywhere', async () => {
    const text = [...jsonLinesCatalog(articles)].join('') + '{broken\n';
    const bytes = Buffer.from(text);
    // Cuts inside lines and inside multi-byte characters.
    const chunks = [
      bytes.subarray(0, 1001),
      bytes.subarray(1001, 1002),
      bytes.subarray(1002, 7777),
      bytes.subarray(7777),
    ];
    const inline = await collect(chunks, { format: 'jsonl', shopId: 'labtools', thread: 'inline' });
    const worker = await collect(chunks, { format: 'jsonl', shopId: 'labtools', thread: 'worker', workers: 3 });
    expect(worker).toEqual(inline);
    const options = { format: 'jsonl', shopId: 'labtools', workers: 3, pieceBytes: 512 } as const;
    // Every piece on a worker, none parsed here while they start.
    expect(await collect(chunks, { ...options, parseWhileStarting: false })).toEqual(inline);
    expect(inline).toHaveLength(articles.length + 1);
    expect(inline.slice(0, -1).map((i) => ('article' in i ? i.article.id : i.line))).toEqual(articles.map((a) => a.id));
    expect(inline[inline.length - 1]).toMatchObject({ line: articles.length + 1, violations: [{ path: '' }] });
  });

  it('parses BMEcat on the worker with the header language and the lines of the items', async () => {
    const xml = [...bmecatCatalog(articles.slice(0, 5), { catalogId: 'c', currency: 'EUR' })];
    const items = await collect(xml, { format: 'bmecat', shopId: 'labtools' });
    expect(items.map((i) => ('article' in i ? i.article.id : undefined))).toEqual(
      articles.slice(0, 5).map((a) => a.id),
    );
    expect(items.map((i) => i.line)).toEqual([5, 6, 7, 8, 9]);
  });

  it('raises the XmlSyntaxError of the worker with its line', async () => {
    const cut = BMECAT_12.slice(0, 2000);
    await expect(collect([cut], { format: 'bmecat', shopId: 'lab' })).rejects.toThrow(XmlSyntaxError);
    const error = await collect(['<a>\n<b <c></a>'], { format: 'bmecat', shopId: 'lab' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'XmlSyntaxError', line: 2 });
  });

  describe('BMEcat in pieces on two workers', () => {
    const many = [...generateCatalog({ articles: 600, seed: 9 }).articles()].filter((a) => a.shopId === 'labtools');
    // Several lines per item, so that line numbers are counted across pieces.
    const xml = [...bmecatCatalog(many, { catalogId: 'c', currency: 'EUR' })]
      .join('')
      .replaceAll('</PRODUCT_DETAILS>', '</PRODUCT_DETAILS>\n');

    /** Runs `text` through one reader on this thread and through two workers; expects the same records (or error). */
    async function same(text: string, pieceBytes: number, chunkBytes: number): Promise<ParsedCatalogItem[]> {
      const bytes = Buffer.from(text);
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += chunkBytes) chunks.push(bytes.subarray(at, at + chunkBytes));
      const inline = await collect(chunks, { format: 'bmecat', shopId: 'labtools', thread: 'inline' }).catch(
        (e: unknown) => e,
      );
      const worker = await collect(chunks, { format: 'bmecat', shopId: 'labtools', workers: 2, pieceBytes }).catch(
        (e: unknown) => e,
      );
      expect(worker).toEqual(inline);
      const onWorkers = await collect(chunks, {
        format: 'bmecat',
        shopId: 'labtools',
        workers: 2,
        pieceBytes,
        parseWhileStarting: false,
      }).catch((e: unknown) => e);
      expect(onWorkers).toEqual(inline);
      if (inline instanceof Error) throw inline;
      return inline as ParsedCatalogItem[];
    }

    it('reads the same records in file order as one reader, whatever the piece and chunk sizes', async () => {
      expect(many.length).toBeGreaterThan(100);
      for (const [pieceBytes, chunkBytes] of [
        [1500, 997],
        [20_000, 65_536],
        [64 * 1024, 7],
      ] as const) {
        const items = await same(xml, pieceBytes, chunkBytes);
        expect(items.map((i) => ('article' in i ? i.article.id : i.line))).toEqual(many.map((a) => a.id));
        expect(items[1]!.line).toBe(7);
      }
    });

    it('reads a piece again when the cut fell inside a comment or CDATA that holds an item end tag', async () => {
      const tricky = xml
        .replaceAll('</PRODUCT>\n', '</PRODUCT><!-- not an end: </PRODUCT> -->\n')
        .replaceAll('<DESCRIPTION_LONG lang="eng">', '<DESCRIPTION_LONG lang="eng"><![CDATA[</PRODUCT>]]>');
      const items = await same(tricky, 1200, 4096);
      expect(items).toHaveLength(many.length);
      expect(items.some((i) => 'article' in i && i.article.document.includes('</PRODUCT>'))).toBe(true);
    });

    it('reads prefixed items and items longer than a piece', async () => {
      const long = 'x'.repeat(30_000);
      const prefixed = xml
        .replaceAll('<PRODUCT>', '<bme:PRODUCT>')
        .replaceAll('</PRODUCT>', '</bme:PRODUCT >')
        .replace('Hochwertige', `${long} Hochwertige`);
      const items = await same(prefixed, 2000, 3000);
      expect(items).toHaveLength(many.length);
      expect(items.some((i) => 'article' in i && i.article.document.includes(long))).toBe(true);
    });

    it('reads a long section after the items (cut without item ends) as one reader does', async () => {
      const map =
        '<PRODUCT_TO_CATALOGGROUP_MAP><PROD_ID>P</PROD_ID>' +
        '<CATALOG_GROUP_ID>7</CATALOG_GROUP_ID></PRODUCT_TO_CATALOGGROUP_MAP>\n';
      const tail = xml.replace('</T_NEW_CATALOG>', `${map.repeat(3000)}</T_NEW_CATALOG>`);
      const items = await same(tail, 1500, 8192);
      expect(items).toHaveLength(many.length);
    });

    it('raises the same XmlSyntaxError, at the same line, as one reader', async () => {
      const lines = xml.split('\n');
      const broken = [...lines.slice(0, 300), '<DESCRIPTION_SHORT <b>', ...lines.slice(300)].join('\n');
      const error = await same(broken, 1500, 997).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'XmlSyntaxError', line: 301 });
      const unclosed = await same(xml.slice(0, xml.lastIndexOf('</T_NEW_CATALOG>')), 1500, 997).catch(
        (e: unknown) => e,
      );
      expect(unclosed).toMatchObject({
        name: 'XmlSyntaxError',
        reason:
          '2 elements are not closed at the end of the file: <T_NEW_CATALOG> (opened on line 4), <BMECAT> ' +
          '(opened on line 2); close each with its end tag, or send the whole file (it may have been cut short)',
      });
      // Cut after an element inside the last item: the item is named with its line too.
      const inItem = xml.slice(0, xml.lastIndexOf('</PRODUCT_DETAILS>\n') + 19);
      const itemLine = inItem.slice(0, inItem.lastIndexOf('<PRODUCT>')).split('\n').length;
      const openItem = await same(inItem, 1500, 997).catch((e: unknown) => e);
      expect(openItem).toMatchObject({
        name: 'XmlSyntaxError',
        reason: expect.stringMatching(
          new RegExp(
            `^3 elements are not closed at the end of the file: <PRODUCT> \\(opened on line ${itemLine}\\), ` +
              '<T_NEW_CATALOG> \\(opened on line 4\\), <BMECAT> \\(opened on line 2\\); close each',
          ),
        ) as string,
      });
      const cut = await same(xml.slice(0, xml.lastIndexOf('</PRODUCT>') + 5), 1500, 997).catch((e: unknown) => e);
      expect(cut).toMatchObject({ name: 'XmlSyntaxError', reason: 'unfinished markup at the end of the file' });
    });
  });

  it("reports a BMEcat file's transaction and makes each item what it asks, on workers and inline", async () => {
    const update = (transaction: string, items: string) =>
      `<BMECAT version="2005"><HEADER><CATALOG><LANGUAGE>eng</LANGUAGE><CURRENCY>EUR</CURRENCY></CATALOG></HEADER>\n` +
      `<${transaction}>\n${items}\n</${transaction}></BMECAT>`;
    const prices = update(
      'T_UPDATE_PRICES',
      '<PRODUCT><SUPPLIER_PID>P-1</SUPPLIER_PID><PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list">' +
        '<PRICE_AMOUNT>2.50</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS></PRODUCT>\n' +
        '<PRODUCT><SUPPLIER_PID>P-2</SUPPLIER_PID></PRODUCT>',
    );
    const products = update(
      'T_UPDATE_PRODUCTS',
      '<PRODUCT mode="delete"><SUPPLIER_PID>P-3</SUPPLIER_PID></PRODUCT>\n' +
        '<PRODUCT><SUPPLIER_PID>P-4</SUPPLIER_PID></PRODUCT>',
    );
    for (const thread of ['worker', 'inline'] as const) {
      const seen: unknown[] = [];
      const options = (at: number): ParseCatalogOptions => ({
        format: 'bmecat',
        shopId: 'labtools',
        thread,
        onTransaction: (t) => seen.push([t, at]),
      });
      expect(await collect([prices], options(0))).toEqual([
        {
          line: 3,
          change: {
            kind: 'prices',
            articleId: 'labtools:P-1',
            prices: {
              blockPrices: [{ lowerBound: 1, amount: { value: 250, decimalDigits: 2 } }],
              currency: 'EUR',
              priceConditions: { territories: [], priceType: 'net_list' },
            },
          },
        },
        {
          line: 4,
          supplierArticleId: 'P-2',
          violations: [
            {
              path: '',
              message:
                'has no price: give an ARTICLE_PRICE_DETAILS/ARTICLE_PRICE ' +
                '(BMEcat 2005: PRODUCT_PRICE_DETAILS/PRODUCT_PRICE)',
            },
          ],
        },
      ]);
      const items = await collect([products], options(1));
      expect(items[0]).toEqual({ line: 3, change: { kind: 'delete', articleId: 'labtools:P-3' } });
      // Without `mode`, an item is `new`: a whole article, refused here for what it lacks.
      const refused = items[1] && 'violations' in items[1] ? items[1].violations : [];
      expect(items[1]?.line).toBe(4);
      expect(refused.map((v) => v.path)).toContain('/description');
      expect(await collect([BMECAT_12], options(2))).toHaveLength(2);
      expect(seen).toEqual([
        ['T_UPDATE_PRICES', 0],
        ['T_UPDATE_PRODUCTS', 1],
        ['T_NEW_CATALOG', 2],
      ]);
    }
  });
});
