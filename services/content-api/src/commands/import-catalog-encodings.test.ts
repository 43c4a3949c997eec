import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { generateCatalog } from '../demo/generate-catalog.js';
import { CatalogEncodingError } from '../import/xml-encoding.js';
import type { ContentTables } from '../migrations/content-tables.js';
import type { SearchBackend } from '../search/search-backend.js';
import { loadTestCatalog, TEST_SEED } from '../test-support/content-test-app.js';
import { importCatalog } from './import-catalog.js';

const labtools = generateCatalog({ articles: 0, seed: TEST_SEED }).shops.find((s) => s.id === 'labtools')!;

/** A BMEcat 1.2 catalog of one article, declaring `encoding`. */
function catalog(encoding: string): string {
  return `<?xml version="1.0" encoding="${encoding}"?>
<!DOCTYPE BMECAT SYSTEM "bmecat_new_catalog.dtd" [
  <!ELEMENT UDX.EDXF.MASS (#PCDATA)>
]>
<BMECAT version="1.2">
  <HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>E</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION>
    <CURRENCY>EUR</CURRENCY></CATALOG></HEADER>
  <T_NEW_CATALOG>
    <ARTICLE>
      <SUPPLIER_AID>ENC-1</SUPPLIER_AID>
      <ARTICLE_DETAILS><DESCRIPTION_SHORT>Winkel, Höhe 20 mm</DESCRIPTION_SHORT>
        <DESCRIPTION_LONG>Oberfläche: Weiß, 12 €</DESCRIPTION_LONG></ARTICLE_DETAILS>
      <ARTICLE_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></ARTICLE_ORDER_DETAILS>
      <ARTICLE_PRICE_DETAILS><ARTICLE_PRICE price_type="net_customer">
        <PRICE_AMOUNT>1.50</PRICE_AMOUNT><TAX>0.19</TAX></ARTICLE_PRICE></ARTICLE_PRICE_DETAILS>
    </ARTICLE>
  </T_NEW_CATALOG>
</BMECAT>
`;
}

/** The catalog's bytes in each encoding, written without Triad's code. */
const FILES: readonly (readonly [string, Buffer])[] = [
  ['ISO-8859-1', Buffer.from(catalog('ISO-8859-1').replace('€', '\x80'), 'latin1')],
  ['ISO-8859-15', Buffer.from(catalog('ISO-8859-15').replace('€', '\xA4'), 'latin1')],
  ['Windows-1252', Buffer.from(catalog('windows-1252').replace('€', '\x80'), 'latin1')],
  ['UTF-16', Buffer.from(`\uFEFF${catalog('UTF-16')}`, 'utf16le')],
];

describeEachDatabase<ContentTables>('importCatalog in the encoding a file declares', (getDb) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    backend = await loadTestCatalog(getDb(), 10);
  });
  afterAll(async () => {
    await backend?.close();
  });

  for (const [name, bytes] of FILES)
    it(`stores the texts of a ${name} file unaltered, found by their words`, async () => {
      const result = await importCatalog(backend, Readable.from([bytes.subarray(0, 301), bytes.subarray(301)]), {
        format: 'bmecat',
        shop: labtools,
      });
      if (!result.committed) throw new Error(result.refusal);
      expect(result.failed).toEqual([]);
      const stored = await backend.findArticle('labtools:ENC-1');
      expect(stored?.descriptions).toEqual([{ lang: 'de', value: 'Winkel, Höhe 20 mm' }]);
      expect(stored?.descriptionsLong).toEqual([{ lang: 'de', value: 'Oberfläche: Weiß, 12 €' }]);
      const found = await backend.search({
        words: ['winkel'],
        shopIds: ['labtools'],
        sort: [],
        limit: 10,
        offset: 0,
        facets: [],
      });
      expect(found.hits.map((h) => [h.article.id, h.article.descriptionsLong])).toEqual([
        ['labtools:ENC-1', [{ lang: 'de', value: 'Oberfläche: Weiß, 12 €' }]],
      ]);
    });

  it('refuses a file with a byte that is not UTF-8, changing nothing', async () => {
    const before = await backend.currentHash();
    const bytes = Buffer.from(catalog('UTF-8').replace('Höhe', 'H\xF6he'), 'latin1');
    await expect(importCatalog(backend, Readable.from([bytes]), { format: 'bmecat', shop: labtools })).rejects.toThrow(
      new CatalogEncodingError(
        'byte 0xF6 is not valid UTF-8 (in ISO-8859-1 or Windows-1252 it would be "ö"); the file declares ' +
          'encoding="UTF-8": save it as UTF-8 or declare its real encoding, e.g. ' +
          '<?xml version="1.0" encoding="ISO-8859-1"?> (the file is not imported)',
        11,
        52,
      ),
    );
    expect(await backend.currentHash()).toBe(before);
  });

  it('refuses a JSON Lines delete file with a byte that is not UTF-8, saying where, and deletes nothing', async () => {
    const before = await backend.currentHash();
    const bytes = Buffer.concat([
      Buffer.from('{"supplierArticleId":"ENC-1"}\n{"supplierArticleId":"'),
      Buffer.from([0xe9]),
      Buffer.from('"}\n'),
    ]);
    const error = await importCatalog(backend, Readable.from([bytes]), {
      format: 'jsonl',
      mode: 'delete',
      shop: labtools,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CatalogEncodingError);
    expect(error).toMatchObject({ line: 2, column: 23 });
    expect(await backend.currentHash()).toBe(before);
    expect(await backend.findArticle('labtools:ENC-1')).toBeDefined();
  });
});
