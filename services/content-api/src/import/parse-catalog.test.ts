import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bmecatCatalog, jsonLinesCatalog } from '../demo/catalog-writers.js';
import { generateCatalog } from '../demo/generate-catalog.js';
import { BMECAT_12 } from '../test-support/bmecat-fixtures.js';
import type { ParsedCatalogItem } from './catalog-parser.js';
import { parseCatalog, type ParseCatalogOptions } from './parse-catalog.js';
import { XmlSyntaxError } from './xml-event-reader.js';

const articles = [...generateCatalog({ articles: 120, seed: 4 }).articles()].filter((a) => a.shopId === 'labtools');

async function collect(chunks: readonly (string | Buffer)[], options: ParseCatalogOptions): Promise<ParsedCatalogItem[]> {
  const out: ParsedCatalogItem[] = [];
  for await (const item of parseCatalog(Readable.from(chunks), options)) out.push(item);
  return out;
}

describe('parseCatalog', () => {
  it('gives the same records in file order on three workers as inline, from bytes cut anywhere', async () => {
    const text = [...jsonLinesCatalog(articles)].join('') + '{broken\n';
    const bytes = Buffer.from(text);
    // Cuts inside lines and inside multi-byte characters.
    const chunks = [bytes.subarray(0, 1001), bytes.subarray(1001, 1002), bytes.subarray(1002, 7777), bytes.subarray(7777)];
    const inline = await collect(chunks, { format: 'jsonl', shopId: 'labtools', thread: 'inline' });
    const worker = await collect(chunks, { format: 'jsonl', shopId: 'labtools', thread: 'worker', workers: 3 });
    expect(worker).toEqual(inline);
    expect(inline).toHaveLength(articles.length + 1);
    expect(inline.slice(0, -1).map((i) => ('article' in i ? i.article.id : i.line))).toEqual(articles.map((a) => a.id));
    expect(inline[inline.length - 1]).toMatchObject({ line: articles.length + 1, violations: [{ path: '' }] });
  });

  it('parses BMEcat on the worker with the header language and the lines of the items', async () => {
    const xml = [...bmecatCatalog(articles.slice(0, 5), { catalogId: 'c', currency: 'EUR' })];
    const items = await collect(xml, { format: 'bmecat', shopId: 'labtools' });
    expect(items.map((i) => ('article' in i ? i.article.id : undefined))).toEqual(articles.slice(0, 5).map((a) => a.id));
    expect(items.map((i) => i.line)).toEqual([5, 6, 7, 8, 9]);
  });

  it('raises the XmlSyntaxError of the worker with its line', async () => {
    const cut = BMECAT_12.slice(0, 2000);
    await expect(collect([cut], { format: 'bmecat', shopId: 'lab' })).rejects.toThrow(XmlSyntaxError);
    const error = await collect(['<a>\n<b <c></a>'], { format: 'bmecat', shopId: 'lab' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'XmlSyntaxError', line: 2 });
  });
});
