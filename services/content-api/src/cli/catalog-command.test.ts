import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@triad/db';
import { contentStorageFor } from '../content-api-core.js';
import { CONTENT_SQLITE_FILE } from '../content-api-core.js';
import { createCatalogCommand } from './catalog-command.js';
import { runCommands } from '../test-support/run-commands.js';
import type { ContentTables } from '../migrations/content-tables.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'catalog-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let dirs = 0;

/** Runs `triad catalog <args>` in memory; commander usage errors count as exit 2 like runCli does. */
function run(args: readonly string[], stdin?: Readable) {
  return runCommands(dir, (io) => [createCatalogCommand(io, { env: {}, ...(stdin ? { stdin } : {}) })], [
    'catalog',
    ...args,
  ]);
}

function freshDataDir(): string {
  dirs += 1;
  return path.join(dir, `data-${dirs}`);
}

async function withBackend<T>(
  dataDir: string,
  work: (
    backend: ReturnType<typeof contentStorageFor>['backend'],
    importRuns: ReturnType<typeof contentStorageFor>['importRuns'],
  ) => Promise<T>,
): Promise<T> {
  const database = openDatabase<ContentTables>({ sqliteFile: path.join(dataDir, CONTENT_SQLITE_FILE) });
  const { backend, importRuns } = contentStorageFor(database);
  try {
    return await work(backend, importRuns);
  } finally {
    await backend.close();
    await database.close();
  }
}

describe('triad catalog generate', () => {
  it('writes the same JSON Lines for the same seed and a different catalog for another seed', async () => {
    const a = await run(['generate', '--articles', '30']);
    const b = await run(['generate', '--articles', '30']);
    const c = await run(['generate', '--articles', '30', '--seed', '2']);
    expect(a.code).toBe(0);
    expect(a.out.trim().split('\n')).toHaveLength(30);
    expect(b.out).toBe(a.out);
    expect(c.out).not.toBe(a.out);
  });

  it('keeps only the articles of the first k shops with --shops', async () => {
    const { out } = await run(['generate', '--articles', '12', '--shops', '1']);
    const ids = out
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { supplierArticleId: string }).supplierArticleId);
    expect(ids).toHaveLength(12);
    expect(new Set(ids.map((id) => id.split('-')[0]))).toEqual(new Set(['OFF']));
  });

  it('refuses more shops than the generator has with exit 2', async () => {
    const r = await run(['generate', '--articles', '1', '--shops', '9']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--shops is at most');
  });
});

describe('triad catalog import', () => {
  it.each(['jsonl', 'bmecat'] as const)(
    'imports a generated %s file into the shop and prints a summary',
    async (format) => {
      const file = `round-trip.${format === 'jsonl' ? 'jsonl' : 'xml'}`;
      expect((await run(['generate', '--articles', '25', '--shops', '2', '--format', format, '-o', file])).code).toBe(
        0,
      );
      const dataDir = freshDataDir();
      const r = await run(['import', file, '--shop', 'labtools', '--data-dir', dataDir]);
      // Nothing of the generated file goes unkept: its header's catalog id and version are kept too.
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^imported 25, rejected 0 in [\d.]+ s \(\d+ articles\/s\) into shop labtools/);
      if (format === 'bmecat') expect(r.out).toMatch(/^catalog: \S+ version 1\.0$/m);
      else expect(r.out).not.toContain('catalog:');
      await withBackend(dataDir, async (backend) => {
        expect(await backend.countArticles()).toBe(25);
        expect((await backend.findShop('labtools'))?.name).toBe('LabTools Europe B.V.');
        expect((await backend.findArticle('labtools:OFF-0000000'))?.manufacturerName).toBeTruthy();
      });
    },
  );

  it('reports every rejected record by line, imports the rest within --max-rejects and exits 1', async () => {
    const good = (await run(['generate', '--articles', '3'])).out.trim().split('\n');
    const bad = JSON.stringify({
      ...JSON.parse(good[2]!),
      supplierArticleId: 'X-1',
      orderDetails: { orderUnit: 'XYZ', minimumOrderQuantity: 1, orderQuantityInterval: 1, priceQuantity: 1 },
    });
    writeFileSync(path.join(dir, 'mixed.jsonl'), [good[0], '{oops', good[1], bad, good[2]].join('\n'));
    const dataDir = freshDataDir();
    const r = await run([
      'import',
      'mixed.jsonl',
      '--shop',
      'office-direct',
      '--data-dir',
      dataDir,
      '--max-rejects',
      '2',
    ]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^line 2: /m);
    expect(r.err).toMatch(/^line 4, supplierArticleId X-1: \/orderDetails\/orderUnit: /m);
    expect(r.out).toMatch(/^imported 3, rejected 2 /);
    await withBackend(dataDir, async (backend, importRuns) => {
      expect(await backend.countArticles()).toBe(3);
      const [run] = await importRuns.list('office-direct');
      expect(run).toMatchObject({
        fileName: 'mixed.jsonl',
        format: 'jsonl',
        mode: 'replace',
        outcome: 'committed-with-refusals',
        counts: { records: 5, imported: 3, refused: 2 },
      });
      expect(run?.refusedRecords.map((f) => f.line)).toEqual([2, 4]);
      expect(run?.refusedRecords[1]?.reason).toMatch(/^\/orderDetails\/orderUnit: /);
    });
  });

  it('reads standard input with -', async () => {
    // One shop's articles: a record in another currency than the shop's is refused.
    const lines = (await run(['generate', '--articles', '4', '--shops', '1'])).out;
    const r = await run(
      ['import', '-', '--shop', 'office-direct', '--format', 'jsonl', '--data-dir', freshDataDir()],
      Readable.from([lines]),
    );
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^imported 4, rejected 0 /);
  });

  it('commits nothing and exits 3 when more records are rejected than allowed', async () => {
    const good = (await run(['generate', '--articles', '2'])).out.trim().split('\n');
    writeFileSync(path.join(dir, 'first.jsonl'), good.join('\n'));
    writeFileSync(path.join(dir, 'half-bad.jsonl'), [good[0], '{oops'].join('\n'));
    const dataDir = freshDataDir();
    expect((await run(['import', 'first.jsonl', '--shop', 'office-direct', '--data-dir', dataDir])).code).toBe(0);
    const r = await run(['import', 'half-bad.jsonl', '--shop', 'office-direct', '--data-dir', dataDir]);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/^line 2: /m);
    expect(r.err).toContain('nothing was committed: 1 of 2 records refused (50.0 %), more than the default 5 %');
    expect(r.out).toBe('imported 0, rejected 1; nothing was committed, shop office-direct is unchanged\n');
    await withBackend(dataDir, async (backend, importRuns) => {
      expect(await backend.countArticles()).toBe(2);
      const runs = await importRuns.list('office-direct');
      expect(runs.map((run) => [run.fileName, run.outcome])).toEqual([
        ['half-bad.jsonl', 'refused'],
        ['first.jsonl', 'committed'],
      ]);
      expect(runs[0]?.refusal).toContain('more than the default 5 %');
      expect(runs[0]?.refusedRecords.map((f) => f.line)).toEqual([2]);
    });
  });

  it('upserts and deletes articles with --mode, keeping the others', async () => {
    const lines = (await run(['generate', '--articles', '4', '--shops', '1'])).out.trim().split('\n');
    writeFileSync(path.join(dir, 'four.jsonl'), lines.join('\n'));
    const ids = lines.map((l) => (JSON.parse(l) as { supplierArticleId: string }).supplierArticleId);
    writeFileSync(path.join(dir, 'gone.jsonl'), `{"supplierArticleId":"${ids[1]}"}\n`);
    const dataDir = freshDataDir();
    expect((await run(['import', 'four.jsonl', '--shop', 'labtools', '--data-dir', dataDir])).code).toBe(0);
    const r = await run(['import', 'gone.jsonl', '--shop', 'labtools', '--mode', 'delete', '--data-dir', dataDir]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^imported 0, deleted 1, rejected 0 /);
    const again = await run(['import', 'gone.jsonl', '--shop', 'labtools', '--mode', 'delete', '--data-dir', dataDir]);
    // Deleting it again changes nothing and refuses nothing: the shop is already as asked.
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/^imported 0, deleted 0 \(1 already absent\), rejected 0 /);
    writeFileSync(path.join(dir, 'one.jsonl'), lines[1]!);
    const up = await run(['import', 'one.jsonl', '--shop', 'labtools', '--mode', 'upsert', '--data-dir', dataDir]);
    expect(up.out).toMatch(/^imported 1, deleted 0, rejected 0 /);
    await withBackend(dataDir, async (backend) => expect(await backend.countArticles()).toBe(4));
  });

  it("takes a BMEcat file's mode from its transaction and exits 2 for a --mode contradicting it", async () => {
    const bmecat = (transaction: string, items: string) =>
      '<BMECAT version="2005"><HEADER><CATALOG><LANGUAGE>eng</LANGUAGE><CURRENCY>EUR</CURRENCY></CATALOG></HEADER>' +
      `<${transaction}>${items}</${transaction}></BMECAT>\n`;
    const price = (amount: string) =>
      `<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>${amount}</PRICE_AMOUNT>` +
      '<TAX>0.19</TAX></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS>';
    const product = (id: string) =>
      `<PRODUCT><SUPPLIER_PID>${id}</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>Tube ${id}</DESCRIPTION_SHORT>` +
      '</PRODUCT_DETAILS><PRODUCT_ORDER_DETAILS><ORDER_UNIT>PCE</ORDER_UNIT></PRODUCT_ORDER_DETAILS>' +
      `${price('3.00')}</PRODUCT>`;
    writeFileSync(path.join(dir, 'full.xml'), bmecat('T_NEW_CATALOG', product('T-1') + product('T-2')));
    writeFileSync(
      path.join(dir, 'prices.xml'),
      bmecat('T_UPDATE_PRICES', `<PRODUCT><SUPPLIER_PID>T-2</SUPPLIER_PID>${price('4.00')}</PRODUCT>`),
    );
    const dataDir = freshDataDir();
    const shop = ['--shop', 'labtools', '--data-dir', dataDir];
    expect((await run(['import', 'full.xml', ...shop])).out).toMatch(/^imported 2, rejected 0 /);
    const contradicted = await run(['import', 'prices.xml', ...shop, '--mode', 'replace']);
    expect(contradicted.code).toBe(2);
    expect(contradicted.err).toBe(
      'triad catalog import: prices.xml: the file is a BMEcat T_UPDATE_PRICES, which is mode prices; ' +
        'mode replace contradicts it; nothing was changed\n',
    );
    const prices = await run(['import', 'prices.xml', ...shop]);
    expect(prices.code).toBe(0);
    expect(prices.out).toMatch(/^changed the prices of 1, rejected 0 /);
    await withBackend(dataDir, async (backend) => {
      expect(await backend.countArticles()).toBe(2);
      expect((await backend.findArticle('labtools:T-2'))?.blockPrices).toEqual([
        { lowerBound: 1, amount: { value: 400, decimalDigits: 2 } },
      ]);
    });
  });

  it('refuses a --max-rejects that is neither a count nor a percentage with exit 2', async () => {
    const r = await run(['import', 'first.jsonl', '--shop', 'office-direct', '--max-rejects', 'lots']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('whole number (25) or a percentage');
  });

  it('exits 3 and changes nothing for malformed XML', async () => {
    writeFileSync(path.join(dir, 'broken.xml'), '<BMECAT version="2005"><T_NEW_CATALOG><PRODUCT></T_NEW_CATALOG>');
    const dataDir = freshDataDir();
    const r = await run(['import', 'broken.xml', '--shop', 'labtools', '--data-dir', dataDir]);
    expect(r.code).toBe(3);
    expect(r.err).toContain('malformed XML');
    await withBackend(dataDir, async (backend, importRuns) => {
      expect(await backend.countArticles()).toBe(0);
      const runs = await importRuns.list('labtools');
      expect(runs.map((run) => [run.fileName, run.format, run.outcome])).toEqual([['broken.xml', 'bmecat', 'refused']]);
      expect(runs[0]?.refusal).toMatch(/^malformed XML at line 1: /);
    });
  });

  it.each([
    [
      'an unknown shop',
      ['import', 'round-trip.jsonl', '--shop', 'nope'],
      'unknown shop nope; add it first with: triad shops add nope',
    ],
    ['a file without a known extension', ['import', 'catalog.txt', '--shop', 'labtools'], 'cannot tell the format'],
    [
      'an unknown --format',
      ['import', 'round-trip.jsonl', '--shop', 'labtools', '--format', 'csv'],
      'Allowed choices are jsonl, bmecat',
    ],
    ['a missing file', ['import', 'absent.jsonl', '--shop', 'labtools'], 'cannot read absent.jsonl: ENOENT'],
    ['a missing --shop', ['import', 'round-trip.jsonl'], "required option '--shop <id>'"],
    [
      'a bad database URL',
      ['import', 'round-trip.jsonl', '--shop', 'labtools', '--database-url', 'mysql://x'],
      'databaseUrl',
    ],
  ])('exits 2 for %s', async (_name, args, message) => {
    await run(['generate', '--articles', '2', '-o', 'round-trip.jsonl']);
    const r = await run([...args, '--data-dir', freshDataDir()]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });

  it('shows examples in --help', async () => {
    const r = await run(['import', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('triad catalog import demo.jsonl --shop office-direct');
  });
});
