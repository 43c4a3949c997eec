import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { ProblemDocument } from '@triad/service-kit';
import { importAndRecord } from '../../commands/import-and-record.js';
import { generateCatalog } from '../../demo/generate-catalog.js';
import { toJsonLinesRecord } from '../../demo/catalog-writers.js';
import { XmlSyntaxError } from '../../import/xml-event-reader.js';
import type { ImportRunReply } from '../../presenters/import-run-presenter.js';
import type { ContentTables } from '../../migrations/content-tables.js';
import { buildTestAdminApp, TEST_SEED, type TestAdminApp } from '../../test-support/content-test-app.js';
import { BMECAT_12 } from '../../test-support/bmecat-fixtures.js';

const catalog = generateCatalog({ articles: 12, seed: TEST_SEED });
const labtools = catalog.shops.find((s) => s.id === 'labtools')!;
const good = [...catalog.articles()].filter((a) => a.shopId === 'labtools').map(toJsonLinesRecord);

describeEachDatabase<ContentTables>('admin imports route', (getDb) => {
  let t: TestAdminApp;
  let adminToken: string;
  let clock = 1_750_000_000_000;
  const now = () => (clock += 250);
  const importLines = (fileName: string, lines: readonly string[], maxRejects = 5) =>
    importAndRecord(t.backend, t.importRuns, Readable.from(lines.join('\n')), {
      format: 'jsonl',
      shop: labtools,
      fileName,
      now,
      maxRejects: { count: maxRejects },
    });
  const imports = (shopId: string, token = adminToken) =>
    t.app.inject({
      method: 'GET',
      url: `/admin/business-shops/${shopId}/imports`,
      headers: { authorization: `Bearer ${token}` },
    });

  beforeAll(async () => {
    t = await buildTestAdminApp(getDb(), 12);
    adminToken = t.adminToken;
  });
  afterAll(async () => {
    await t?.app.close();
  });

  it('lists no imports for a shop never imported into, and 404 for an unknown shop', async () => {
    const empty = await imports('labtools');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ total: 0, members: [] });
    const unknown = await imports('no-such-shop');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<ProblemDocument>().code).toBe('CONTENT_ERR_SHOP_NOT_FOUND');
  });

  it('needs the admin scope', async () => {
    expect((await imports('labtools', '')).statusCode).toBe(401);
    expect((await imports('labtools', t.token)).statusCode).toBe(403);
  });

  it('lists imports with refusals and refused outright, newest first, with counts and refused lines', async () => {
    const before = await t.backend.currentHash();
    const partial = await importLines('partial.jsonl', [...good, '{not json']);
    expect(partial.result.committed).toBe(true);
    const committedHash = await t.backend.currentHash();
    expect(committedHash).not.toBe(before);
    const refused = await importLines('refused.jsonl', [good[0]!, '{oops', '[]'], 0);
    expect(refused.result.committed).toBe(false);
    // The refused import changed nothing but its record.
    expect(await t.backend.currentHash()).toBe(committedHash);
    await expect(
      importAndRecord(t.backend, t.importRuns, Readable.from('<BMECAT><T_NEW_CATALOG></BMECAT>'), {
        format: 'bmecat',
        shop: labtools,
        fileName: 'broken.xml',
        now,
      }),
    ).rejects.toBeInstanceOf(XmlSyntaxError);

    const response = await imports('labtools');
    expect(response.statusCode).toBe(200);
    const { total, members } = response.json<{ total: number; members: ImportRunReply[] }>();
    expect(total).toBe(3);
    expect(members.map((m) => [m.runNo, m.fileName, m.outcome])).toEqual([
      [3, 'broken.xml', 'refused'],
      [2, 'refused.jsonl', 'refused'],
      [1, 'partial.jsonl', 'committed-with-refusals'],
    ]);
    const [broken, outright, withRefusals] = members;
    expect(broken).toMatchObject({ format: 'bmecat', counts: { records: 0, refused: 0 } });
    expect(broken?.refusal).toMatch(/^malformed XML at line 1: /);
    // A JSON Lines file has no header; a file refused before its header was read names none.
    expect(members.map((m) => m.catalog)).toEqual([null, null, null]);
    expect(outright).toMatchObject({
      format: 'jsonl',
      mode: 'replace',
      refusal: '2 of 3 records refused (66.7 %), more than --max-rejects 0',
      counts: { records: 3, imported: 0, refused: 2 },
      refusedRecords: [
        { line: 2, reason: expect.any(String) as string },
        { line: 3, reason: expect.any(String) as string },
      ],
      refusedNotListed: 0,
    });
    expect(withRefusals).toMatchObject({
      shopId: 'labtools',
      mode: 'replace',
      refusal: null,
      counts: { records: good.length + 1, imported: good.length, added: null, updated: null, deleted: 0, refused: 1 },
      refusedRecords: [{ line: good.length + 1, reason: expect.any(String) as string }],
    });
    expect(Date.parse(withRefusals!.finishedAt)).toBeGreaterThan(Date.parse(withRefusals!.startedAt));
    expect(withRefusals!.startedAt).toBe(new Date(1_750_000_000_250).toISOString());
  });

  it('counts what a delta added and updated', async () => {
    const changed = JSON.stringify({ ...JSON.parse(good[0]!), description: 'changed' });
    const extra = JSON.stringify({ ...JSON.parse(good[0]!), supplierArticleId: 'EXTRA-1' });
    await importAndRecord(t.backend, t.importRuns, Readable.from([changed, extra].join('\n')), {
      format: 'jsonl',
      mode: 'upsert',
      shop: labtools,
      fileName: 'delta.jsonl',
    });
    const [newest] = (await imports('labtools')).json<{ members: ImportRunReply[] }>().members;
    expect(newest).toMatchObject({
      fileName: 'delta.jsonl',
      mode: 'upsert',
      outcome: 'committed',
      counts: { records: 2, imported: 2, added: 1, updated: 1, refused: 0 },
      refusedRecords: [],
    });
  });

  it('shows how a BMEcat import took its prices and what the reader kept under an id', async () => {
    // Shop defaults the file relies on: a tax for the price without TAX, net_list preferred.
    const shop = {
      ...labtools,
      id: 'glaswerk',
      currency: 'EUR',
      defaultTax: { value: 19, decimalDigits: 2 },
      priceTypes: ['net_list', 'net_customer'],
    };
    const file = BMECAT_12.replace(
      '<TAX>0.19</TAX></ARTICLE_PRICE></ARTICLE_PRICE_DETAILS>',
      '</ARTICLE_PRICE>' + '</ARTICLE_PRICE_DETAILS>',
    )
      .replace('<ORDER_UNIT>PIECE</ORDER_UNIT>', '<ORDER_UNIT>C62</ORDER_UNIT>')
      .replace(
        '<FEATURE><FNAME>Volumen</FNAME>',
        '<FEATURE><FT_IDREF>AAX1</FT_IDREF></FEATURE><FEATURE><FNAME>Volumen</FNAME>',
      );
    const { result } = await importAndRecord(t.backend, t.importRuns, Readable.from([file]), {
      format: 'bmecat',
      shop,
      fileName: 'glaswerk.xml',
      now,
    });
    expect(result.committed).toBe(true);
    const [run] = (await imports('glaswerk')).json<{ members: ImportRunReply[] }>().members;
    expect(run?.decisions).toEqual({ defaultTaxUsed: 1, priceTypesUsed: { net_customer: 2 } });
    // Which catalog the file was: its header's id, version and supplier, kept on the run.
    expect(run?.catalog).toEqual({
      catalogId: 'C1',
      catalogVersion: '1.0',
      catalogName: null,
      generationDate: null,
      supplierId: null,
      supplierName: 'Labor & Co',
      buyerName: null,
      generatorInfo: null,
    });
    expect(run?.warnings.map((w) => w.path)).not.toContain('HEADER/CATALOG/CATALOG_ID');
    expect(run?.warnings).toContainEqual({
      kind: 'feature-name-unresolved',
      path: 'ARTICLE/ARTICLE_FEATURES/FEATURE',
      count: 1,
      line: 24,
      message: expect.stringContaining('feature AAX1 has no name') as string,
    });
  });
});
