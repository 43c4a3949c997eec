import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { generateCatalog } from '../demo/generate-catalog.js';
import type { Article } from '../model/article.js';
import type { SearchBackend } from '../search/search-backend.js';
import type { SearchQuery } from '../search/search-query.js';
import { BMECAT_12 } from '../test-support/bmecat-fixtures.js';
import { XmlSyntaxError } from '../import/xml-event-reader.js';
import { loadTestCatalog, TEST_SEED } from '../test-support/content-test-app.js';
import { importCatalog } from './import-catalog.js';
import type { ContentTables } from '../migrations/content-tables.js';

const ARTICLES = 80;
const catalog = generateCatalog({ articles: ARTICLES, seed: TEST_SEED });
const all = [...catalog.articles()];
const labtools = catalog.shops.find((s) => s.id === 'labtools')!;

function record(supplierArticleId: string, description: string, orderUnit = 'C62'): string {
  return JSON.stringify({
    supplierArticleId,
    description,
    descriptions: [{ lang: 'en', value: description }],
    currency: 'EUR',
    tax: { value: 19, decimalDigits: 2 },
    blockPrices: [{ lowerBound: 1, amount: { value: 995, decimalDigits: 2 } }],
    orderDetails: { orderUnit, minimumOrderQuantity: 1, orderQuantityInterval: 1, priceQuantity: 1 },
    classifications: [{ systemName: 'UNSPSC-7', groupId: '11111111', features: [] }],
  });
}

const query = (overrides: Partial<SearchQuery>): SearchQuery => ({
  words: [],
  shopIds: [],
  sort: [],
  limit: 100,
  offset: 0,
  facets: [],
  ...overrides,
});

describeEachDatabase<ContentTables>('importCatalog', (getDb) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    backend = await loadTestCatalog(getDb(), ARTICLES);
  });
  afterAll(async () => {
    await backend?.close();
  });

  it("replaces one shop's catalog, reporting bad lines by number and keeping the other shops", async () => {
    const oldLab = all.find((a) => a.shopId === 'labtools')!;
    const lines = [
      record('NEW-1', 'zirconium spatula'),
      '{not json',
      record('NEW-2', 'quartz cuvette'),
      record('NEW-3', 'bad unit', 'XYZ'),
      '',
      record('NEW-1', 'again'),
    ];
    const result = await importCatalog(backend, Readable.from(lines.join('\n')), {
      format: 'jsonl',
      shop: labtools,
      maxRejects: { count: 3 },
    });
    if (!result.committed) throw new Error(result.refusal);
    expect(result.imported).toBe(2);
    expect(result.failed.map((f) => f.line)).toEqual([2, 4, 6]);
    expect(result.failed[1]!.violations).toEqual([expect.objectContaining({ path: '/orderDetails/orderUnit' })]);
    expect(await backend.currentHash()).toBe(result.hash);
    const lab = await backend.search(query({ shopIds: ['labtools'] }));
    expect(lab.hits.map((h) => h.article.id).sort()).toEqual(['labtools:NEW-1', 'labtools:NEW-2']);
    expect((await backend.search(query({ words: ['zirconium'] }))).total).toBe(1);
    expect(
      (await backend.search(query({ words: [oldLab.supplierArticleId.toLowerCase().split('-')[1]!] }))).hits.map(
        (h) => h.article.id,
      ),
    ).not.toContain(oldLab.id);
    expect(await backend.countArticles()).toBe(all.filter((a) => a.shopId !== 'labtools').length + 2);
  });

  it('imports the same when parsing on the calling thread', async () => {
    const lines = [record('IN-1', 'inline spatula'), 'nope', record('IN-1', 'again'), record('IN-2', 'inline beaker')];
    const result = await importCatalog(backend, Readable.from(lines.join('\n')), {
      format: 'jsonl',
      shop: labtools,
      parseThread: 'inline',
      maxRejects: { percent: 50 },
    });
    expect(result.imported).toBe(2);
    expect(result.failed.map((f) => f.line)).toEqual([2, 3]);
    expect((await backend.search(query({ words: ['inline'] }))).hits.map((h) => h.article.id).sort()).toEqual([
      'labtools:IN-1',
      'labtools:IN-2',
    ]);
    // Back to the state the next tests expect.
    await importCatalog(
      backend,
      Readable.from([record('NEW-1', 'zirconium spatula'), record('NEW-2', 'quartz cuvette')].join('\n')),
      { format: 'jsonl', shop: labtools },
    );
  });

  it('changes nothing when reading the articles fails halfway', async () => {
    const before = await backend.countArticles();
    const hash = await backend.currentHash();
    async function* failing(): AsyncGenerator<Article> {
      yield { ...all.find((a) => a.shopId === 'labtools')! };
      await Promise.resolve(); // the failing read is asynchronous, as a file read is
      throw new Error('disk gone');
    }
    await expect(backend.replaceShopCatalog({ shop: labtools, articles: failing(), hash: 'never' })).rejects.toThrow(
      'disk gone',
    );
    expect(await backend.countArticles()).toBe(before);
    expect(await backend.currentHash()).toBe(hash);
    expect((await backend.search(query({ words: ['zirconium'] }))).total).toBe(1);
  });

  it('imports a BMEcat file for a shop, skipping the article with an unknown unit code', async () => {
    const shop = { ...catalog.shops.find((x) => x.id === 'cz-technik')!, id: 'cz-euro', currency: 'EUR' };
    const result = await importCatalog(backend, Readable.from([BMECAT_12]), {
      format: 'bmecat',
      shop,
      maxRejects: { count: 1 },
    });
    expect(result.imported).toBe(1);
    expect(result.failed).toEqual([
      {
        line: 37,
        supplierArticleId: 'B-200',
        violations: [expect.objectContaining({ path: 'ARTICLE_ORDER_DETAILS/ORDER_UNIT' })],
      },
    ]);
    expect(result.priceTypesUsed).toEqual({ net_customer: 1 });
    const page = await backend.search(query({ words: ['messzylinder'] }));
    expect(page.hits.map((h) => h.article.id)).toEqual(['cz-euro:B-100']);
  });

  it.each(['worker', 'inline'] as const)(
    "reports a feature kept under its id as a warning with the file's line (%s thread)",
    async (parseThread) => {
      const shop = { ...catalog.shops.find((x) => x.id === 'cz-technik')!, id: `cz-features-${parseThread}` };
      // Two features the file names by an id it does not define, on the line of the first feature (line 24).
      const file = BMECAT_12.replace(
        '<FEATURE><FNAME>Volumen</FNAME>',
        '<FEATURE><FT_IDREF>AAX1</FT_IDREF></FEATURE><FEATURE><FT_IDREF>AAX2</FT_IDREF></FEATURE>' +
          '<FEATURE><FNAME>Volumen</FNAME>',
      );
      const result = await importCatalog(backend, Readable.from([file]), {
        format: 'bmecat',
        shop: { ...shop, currency: 'EUR' },
        maxRejects: { count: 1 },
        parseThread,
      });
      expect(result.imported).toBe(1);
      expect(result.warnings.filter((w) => w.kind !== 'unkept-element')).toEqual([
        {
          kind: 'feature-name-unresolved',
          path: 'ARTICLE/ARTICLE_FEATURES/FEATURE',
          count: 2,
          line: 24,
          message: expect.stringMatching(/^feature AAX1 has no name: .* \(the first of 2\)$/) as string,
        },
      ]);
    },
  );

  it('refuses a BMEcat file priced in another currency than the shop, naming PRICE_CURRENCY', async () => {
    const shop = catalog.shops.find((x) => x.id === 'cz-technik')!;
    const hash = await backend.currentHash();
    const result = await importCatalog(backend, Readable.from([BMECAT_12]), { format: 'bmecat', shop });
    expect(result.committed).toBe(false);
    expect(result.failed[0]?.violations[0]?.message).toBe(
      'ARTICLE_PRICE price_type="net_customer": PRICE_CURRENCY EUR: shop cz-technik accepts CZK ' +
        '(import the catalog into a shop in EUR, or give prices in CZK)',
    );
    expect(await backend.currentHash()).toBe(hash);
  });

  it('commits nothing when every record of a replacement is refused, and says why', async () => {
    const before = await backend.search(query({ shopIds: ['labtools'] }));
    const hash = await backend.currentHash();
    const lines = [record('Z-1', 'bad unit', 'XYZ'), '{not json', record('Z-2', 'bad unit', 'QQQ')];
    const result = await importCatalog(backend, Readable.from(lines.join('\n')), { format: 'jsonl', shop: labtools });
    expect(result.committed).toBe(false);
    expect(result.committed ? '' : result.refusal).toBe(
      '3 of 3 records refused (100.0 %); the replacement would leave the shop empty',
    );
    expect(result.failed.map((f) => f.line)).toEqual([1, 2, 3]);
    expect(await backend.currentHash()).toBe(hash);
    const after = await backend.search(query({ shopIds: ['labtools'] }));
    expect(after.hits.map((h) => h.article.id)).toEqual(before.hits.map((h) => h.article.id));
    expect(after.total).toBeGreaterThan(0);
  });

  it('commits nothing when more than 5 % of the records are refused, unless --max-rejects allows them', async () => {
    const before = await backend.countArticles();
    const lines = [record('P-1', 'xylophone one'), record('P-2', 'xylophone two'), record('P-3', 'bad', 'XYZ')];
    const text = lines.join('\n');
    const refused = await importCatalog(backend, Readable.from(text), { format: 'jsonl', shop: labtools });
    expect(refused.committed ? '' : refused.refusal).toBe('1 of 3 records refused (33.3 %), more than the default 5 %');
    expect(await backend.countArticles()).toBe(before);
    expect((await backend.search(query({ words: ['xylophone'] }))).total).toBe(0);
    const tooFew = await importCatalog(backend, Readable.from(text), {
      format: 'jsonl',
      shop: labtools,
      maxRejects: { count: 0 },
    });
    expect(tooFew.committed ? '' : tooFew.refusal).toBe('1 of 3 records refused (33.3 %), more than --max-rejects 0');
    const allowed = await importCatalog(backend, Readable.from(text), {
      format: 'jsonl',
      shop: labtools,
      maxRejects: { percent: 34 },
    });
    expect(allowed.committed).toBe(true);
    expect((await backend.search(query({ words: ['xylophone'] }))).total).toBe(2);
    // Back to the state the next tests expect.
    await importCatalog(
      backend,
      Readable.from([record('NEW-1', 'zirconium spatula'), record('NEW-2', 'quartz cuvette')].join('\n')),
      { format: 'jsonl', shop: labtools },
    );
  });

  it('changes nothing when the BMEcat file is malformed', async () => {
    const before = await backend.countArticles();
    const shop = catalog.shops.find((x) => x.id === 'office-direct')!;
    await expect(
      importCatalog(backend, Readable.from([BMECAT_12.slice(0, 2000)]), { format: 'bmecat', shop }),
    ).rejects.toThrow(XmlSyntaxError);
    expect(await backend.countArticles()).toBe(before);
  });

  it('refuses a record over a field limit with its element path and line, and imports the rest', async () => {
    const shop = catalog.shops.find((x) => x.id === 'cz-technik')!;
    const long = 'lang '.repeat(14_000); // 70,000 characters: over the 65,536 of DESCRIPTION_LONG
    const xml = BMECAT_12.replace('<![CDATA[<p>Aus <b>Borosilikatglas</b></p>]]>', long);
    const result = await importCatalog(backend, Readable.from([xml]), {
      format: 'bmecat',
      shop,
      maxRejects: { count: 2 },
    });
    expect(result).toMatchObject({ committed: true, imported: 0 });
    expect(result.failed[0]).toEqual({
      line: 10,
      violations: [
        {
          path: 'ARTICLE/ARTICLE_DETAILS/DESCRIPTION_LONG',
          message: expect.stringMatching(
            /^DESCRIPTION_LONG \(4 lines below the item's start tag\): the text is longer than 65536 characters/,
          ) as string,
        },
      ],
    });
  });

  it('changes nothing when the BMEcat file holds a character XML does not allow, and says where', async () => {
    const before = await backend.countArticles();
    const shop = catalog.shops.find((x) => x.id === 'office-direct')!;
    const xml = BMECAT_12.replace('Messzylinder 100 ml', 'Messzylinder&#0; 100 ml');
    await expect(importCatalog(backend, Readable.from([xml]), { format: 'bmecat', shop })).rejects.toThrow(
      /^line 13, column 40: character reference &#0; stands for U\+0000, which XML 1.0 does not allow/,
    );
    expect(await backend.countArticles()).toBe(before);
  });
});
