import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ParsedCatalogItem } from './catalog-parser.js';
import { parseCatalog, type ParseCatalogOptions } from './parse-catalog.js';
import { CatalogEncodingError } from './xml-encoding.js';

/** A BMEcat 1.2 catalog of `count` articles with German text, declaring `encoding`. */
function catalog(encoding: string, count: number, long = ''): string {
  const articles = Array.from(
    { length: count },
    (_, i) => `    <ARTICLE>
      <SUPPLIER_AID>E-${i}</SUPPLIER_AID>
      <ARTICLE_DETAILS><DESCRIPTION_SHORT>Winkel ${i}, Höhe 20 mm</DESCRIPTION_SHORT>
        <DESCRIPTION_LONG>Oberfläche: Weiß, „matt“ – 12 €${i === 3 ? long : ''}</DESCRIPTION_LONG></ARTICLE_DETAILS>
      <ARTICLE_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></ARTICLE_ORDER_DETAILS>
      <ARTICLE_PRICE_DETAILS><ARTICLE_PRICE price_type="net_customer">
        <PRICE_AMOUNT>1.50</PRICE_AMOUNT><TAX>0.19</TAX></ARTICLE_PRICE></ARTICLE_PRICE_DETAILS>
    </ARTICLE>`,
  );
  return `<?xml version="1.0" encoding="${encoding}"?>
<!DOCTYPE BMECAT SYSTEM "bmecat_new_catalog.dtd">
<BMECAT version="1.2" xmlns="http://www.bmecat.org/bmecat/1.2/bmecat_new_catalog">
  <HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>E</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION>
    <CURRENCY>EUR</CURRENCY></CATALOG>
    <SUPPLIER><SUPPLIER_NAME>Maße & Gewichte</SUPPLIER_NAME></SUPPLIER>
  </HEADER>
  <T_NEW_CATALOG>
${articles.join('\n')}
  </T_NEW_CATALOG>
</BMECAT>
`.replace('Maße & Gewichte', 'Maße &amp; Gewichte');
}

/** Bytes of `text` in a single-byte encoding: Latin-1 with the characters beyond it at `bytes`. */
function singleByte(text: string, bytes: Readonly<Record<string, number>>): Buffer {
  return Buffer.from(Array.from(text, (c) => bytes[c] ?? c.charCodeAt(0)));
}

const WINDOWS_1252 = { '€': 0x80, '„': 0x84, '“': 0x93, '–': 0x96 };

/** The file in each encoding, by how its text was written. */
const ENCODED: readonly (readonly [string, (count: number, long?: string) => Buffer])[] = [
  ['UTF-8', (n, long) => Buffer.from(catalog('UTF-8', n, long))],
  ['UTF-8 with a byte order mark', (n, long) => Buffer.from(`\uFEFF${catalog('UTF-8', n, long)}`)],
  ['ISO-8859-1', (n, long) => singleByte(catalog('ISO-8859-1', n, long), WINDOWS_1252)],
  ['Windows-1252', (n, long) => singleByte(catalog('windows-1252', n, long), WINDOWS_1252)],
  [
    'ISO-8859-15',
    (n, long) =>
      singleByte(catalog('ISO-8859-15', n, long).replaceAll('„', '"').replaceAll('“', '"').replaceAll('–', '-'), {
        '€': 0xa4,
      }),
  ],
  ['UTF-16 LE', (n, long) => Buffer.from(`\uFEFF${catalog('UTF-16', n, long)}`, 'utf16le')],
  ['UTF-16 BE', (n, long) => Buffer.from(`\uFEFF${catalog('UTF-16', n, long)}`, 'utf16le').swap16()],
];

function chunks(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

async function collect(input: readonly Buffer[], options: ParseCatalogOptions): Promise<ParsedCatalogItem[]> {
  const out: ParsedCatalogItem[] = [];
  for await (const item of parseCatalog(Readable.from(input), options)) out.push(item);
  return out;
}

/** The records (or error) of one reader on this thread, expecting the same from two workers in small pieces. */
async function same(bytes: Buffer, format: 'bmecat' | 'jsonl' = 'bmecat'): Promise<ParsedCatalogItem[] | Error> {
  const input = chunks(bytes, 333);
  const failed = (e: unknown) => (e instanceof Error ? e : new Error(String(e)));
  const inline = await collect(input, { format, shopId: 'labtools', thread: 'inline' }).catch(failed);
  const worker = await collect(input, { format, shopId: 'labtools', workers: 2, pieceBytes: 700 }).catch(failed);
  expect(worker).toEqual(inline);
  return inline;
}

describe('parseCatalog in the encoding a file declares', () => {
  for (const [name, encode] of ENCODED)
    it(`reads ${name} on this thread and in pieces on workers alike, altering no character`, async () => {
      const items = await same(encode(40));
      if (items instanceof Error) throw items;
      expect(items).toHaveLength(40);
      const [first] = items;
      if (!first || !('article' in first)) throw new Error(`not an article: ${JSON.stringify(first)}`);
      expect(first.article.description).toBe('Winkel 0, Höhe 20 mm');
      for (const item of items) {
        const document = 'article' in item ? item.article.document : '';
        expect(document).toContain('Oberfläche: Weiß');
        expect(document).toContain('12 €');
        if (name !== 'ISO-8859-15') expect(document).toContain('„matt“ – 12');
      }
    });

  it('reads an item longer than a piece in a single-byte file', async () => {
    const items = await same(ENCODED[3]![1](12, ' Höhe'.repeat(400)));
    if (items instanceof Error) throw items;
    expect(items.filter((i) => 'article' in i && i.article.document.includes('Höhe Höhe'))).toHaveLength(1);
  });

  it('refuses invalid UTF-8 at its line and column, wherever the pieces are cut', async () => {
    const text = catalog('UTF-8', 40);
    const at = text.indexOf('Winkel 30');
    const line = text.slice(0, at).split('\n').length;
    const bytes = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xfc]), Buffer.from(text.slice(at))]);
    const error = await same(bytes);
    expect(error).toBeInstanceOf(CatalogEncodingError);
    expect(error).toMatchObject({ line, column: at - text.lastIndexOf('\n', at) });
    expect(error instanceof Error && error.message).toContain(
      'byte 0xFC is not valid UTF-8 (in ISO-8859-1 or Windows-1252 it would be "ü")',
    );
  });

  it('refuses invalid UTF-8 inside an item longer than a piece at its line', async () => {
    const text = catalog('UTF-8', 12, `\n${'Höhe '.repeat(300)}\nab`);
    const at = text.lastIndexOf('\nab') + 2;
    const line = text.slice(0, at).split('\n').length;
    const bytes = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xe4]), Buffer.from(text.slice(at))]);
    expect(await same(bytes)).toMatchObject({ name: 'CatalogEncodingError', line, column: 2 });
  });

  it('refuses a Windows-1252 byte without a character, and an encoding it does not read', async () => {
    const text = catalog('windows-1252', 30);
    const at = text.indexOf('Winkel 20');
    const bytes = Buffer.concat([
      singleByte(text.slice(0, at), WINDOWS_1252),
      Buffer.from([0x8d]),
      singleByte(text.slice(at), WINDOWS_1252),
    ]);
    expect(await same(bytes)).toMatchObject({
      line: text.slice(0, at).split('\n').length,
      column: at - text.lastIndexOf('\n', at),
    });
    expect(await same(Buffer.from(catalog('IBM037', 3)))).toMatchObject({
      name: 'CatalogEncodingError',
      line: 1,
      message: expect.stringContaining('encoding="IBM037", which Triad does not read') as unknown,
    });
  });

  it('refuses JSON Lines that are not UTF-8 with the line and column, on workers too', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => JSON.stringify({ supplierArticleId: `J-${i}`, d: 'Höhe' }));
    const text = `${lines.join('\n')}\n`;
    const at = text.indexOf('"J-150"') + 3;
    const bytes = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xf6]), Buffer.from(text.slice(at))]);
    expect(await same(bytes, 'jsonl')).toMatchObject({
      name: 'CatalogEncodingError',
      line: 151,
      column: 25,
      message: expect.stringContaining('JSON Lines files are UTF-8 (RFC 8259)') as unknown,
    });
  });
});
