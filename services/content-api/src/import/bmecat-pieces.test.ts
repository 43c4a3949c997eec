import { describe, expect, it } from 'vitest';
import { BMECAT_12 } from '../test-support/bmecat-fixtures.js';
import {
  BmecatHeaderReader,
  FORCED_CUT_PIECES,
  lastItemEnd,
  pieceEnd,
  readBmecatPiece,
  utf8Boundary,
} from './bmecat-pieces.js';
import { readBmecat } from './bmecat-reader.js';
import type { BmecatItem } from './bmecat-item.js';
import { Readable } from 'node:stream';

const PRODUCT = Buffer.from('PRODUCT');
const defaults = { language: 'de', currency: 'EUR' } as const;

describe('lastItemEnd', () => {
  it('finds the last item end tag, with or without a prefix or space before ">"', () => {
    const text = '<PRODUCT>a</PRODUCT><PRODUCT>b</bme:PRODUCT >x';
    expect(lastItemEnd(Buffer.from(text), PRODUCT)).toBe(text.indexOf('x'));
    expect(lastItemEnd(Buffer.from('<PRODUCT>a</PRODUCT>tail'), PRODUCT)).toBe('<PRODUCT>a</PRODUCT>'.length);
  });

  it('passes over longer names, start tags and what lies before `from`', () => {
    const text = '<PRODUCT>a</PRODUCT><PRODUCT><PRODUCT_DETAILS></PRODUCT_DETAILS><PRODUCTX/>';
    expect(lastItemEnd(Buffer.from(text), PRODUCT)).toBe('<PRODUCT>a</PRODUCT>'.length);
    expect(lastItemEnd(Buffer.from(text), PRODUCT, 25)).toBe(-1);
    expect(lastItemEnd(Buffer.from('<PRODUCT><PRODUCT_PRICE>'), PRODUCT)).toBe(-1);
  });
});

describe('pieceEnd', () => {
  const item = '<PRODUCT><X>1</X></PRODUCT>';
  it('ends a piece after the last item in the first piece length, or after a longer item', () => {
    const bytes = Buffer.from(item.repeat(10));
    expect(pieceEnd(bytes, PRODUCT, 100)).toBe(item.length * 3);
    expect(pieceEnd(bytes.subarray(0, 99), PRODUCT, 100)).toBe(-1);
    const long = Buffer.from(`<PRODUCT>${'x'.repeat(300)}</PRODUCT>${item}<PRODUCT>`);
    expect(pieceEnd(long, PRODUCT, 100)).toBe(long.length - '<PRODUCT>'.length);
  });

  it('cuts after the last ">" when no item ends in many pieces, so a long section after the items is not held', () => {
    const map = '<PRODUCT_TO_CATALOGGROUP_MAP><PROD_ID>1</PROD_ID></PRODUCT_TO_CATALOGGROUP_MAP>';
    const section = Buffer.from(map.repeat(Math.ceil((FORCED_CUT_PIECES * 100) / map.length)) + '<PROD');
    expect(pieceEnd(section.subarray(0, 15 * 100), PRODUCT, 100)).toBe(-1);
    expect(pieceEnd(section, PRODUCT, 100)).toBe(section.length - '<PROD'.length);
  });
});

describe('utf8Boundary', () => {
  it('stops before a character the bytes cut', () => {
    const bytes = Buffer.from('aü€😀');
    // a (1) ü (2) € (3) 😀 (4)
    expect(utf8Boundary(bytes)).toBe(10);
    for (const [cut, whole] of [
      [2, 1],
      [3, 3],
      [4, 3],
      [5, 3],
      [6, 6],
      [7, 6],
      [8, 6],
      [9, 6],
    ] as const)
      expect(utf8Boundary(bytes.subarray(0, cut))).toBe(whole);
  });
});

describe('readBmecatPiece', () => {
  it('reads whole items and gives back an unfinished one from its start tag, with the lines before it', () => {
    const piece = readBmecatPiece(
      '<PRODUCT><SUPPLIER_PID>A</SUPPLIER_PID></PRODUCT>\n\n<PRODUCT><SUPPLIER_PID>B</SUPP',
      defaults,
      7,
    );
    expect(piece.items).toMatchObject([{ line: 7, record: { supplierArticleId: 'A' } }]);
    expect(piece.rest).toBe('<PRODUCT><SUPPLIER_PID>B</SUPP');
    expect(piece.lines).toBe(2);
    expect(piece.depth).toBe(0);
  });

  it('gives back unfinished markup outside items, and counts the lines and end tags of a clean end', () => {
    expect(readBmecatPiece('<PRODUCT></PRODUCT><!-- </PRODUCT>', defaults)).toMatchObject({
      rest: '<!-- </PRODUCT>',
      lines: 0,
    });
    expect(readBmecatPiece('<PRODUCT></PRODUCT>\n</T_NEW_CATALOG>\n</BMECAT>\n', defaults)).toMatchObject({
      rest: '',
      lines: 3,
      depth: -2,
    });
  });
});

describe('BmecatHeaderReader', () => {
  it('stops at the first item with the header language, currency, line and depth', () => {
    const reader = new BmecatHeaderReader();
    const cut = BMECAT_12.indexOf('<ARTICLE mode') + 3;
    expect(reader.feed(BMECAT_12.slice(0, cut))).toBeUndefined();
    const header = reader.feed(BMECAT_12.slice(cut));
    expect(header).toMatchObject({
      defaults: { language: 'de', currency: 'EUR' },
      line: 10,
      depth: 2,
      itemName: 'ARTICLE',
    });
    expect(BMECAT_12.endsWith(header!.rest)).toBe(true);
    expect(header!.rest.startsWith('<ARTICLE mode="new">')).toBe(true);
  });

  it('lets pieces after the header read what the whole-document reader reads', async () => {
    const whole: BmecatItem[] = [];
    for await (const item of readBmecat(Readable.from([BMECAT_12]))) whole.push(item);
    const header = new BmecatHeaderReader().feed(BMECAT_12)!;
    const piece = readBmecatPiece(header.rest, header.defaults, header.line);
    expect(piece.items).toEqual(whole);
    expect(piece.depth).toBe(-header.depth);
  });
});
