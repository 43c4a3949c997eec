import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BusinessShop } from '../model/article.js';
import { createCatalogCommand } from './catalog-command.js';
import { createShopsCommand } from './shops-command.js';
import { runCommands } from '../test-support/run-commands.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'shops-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let dirs = 0;

/** Runs `triad <args>` with the shops and catalog commands in memory; usage errors exit 2 like runCli. */
function run(args: readonly string[]) {
  return runCommands(dir, (io) => [createShopsCommand(io, { env: {} }), createCatalogCommand(io, { env: {} })], args);
}

function freshDataDir(): string {
  dirs += 1;
  return path.join(dir, `data-${dirs}`);
}

async function listed(dataDir: string): Promise<(BusinessShop & { articles: number })[]> {
  const { code, out } = await run(['shops', 'list', '--json', '--data-dir', dataDir]);
  expect(code).toBe(0);
  return JSON.parse(out) as (BusinessShop & { articles: number })[];
}

describe('triad shops', () => {
  it('adds a shop with its terms from options into a SQLite file and lists it', async () => {
    const dataDir = freshDataDir();
    const added = await run([
      'shops',
      'add',
      'acme',
      '--name',
      'ACME Supplies',
      '--currency',
      'CZK',
      '--shipping',
      '120',
      '--free-shipping-from',
      '2500',
      '--ship-to',
      'cz,sk',
      '--minimum-order',
      '1000.50',
      '--restocking-fee',
      '12.5',
      '--return-condition',
      'en=Unopened goods only',
      '--data-dir',
      dataDir,
    ]);
    expect(added.err).toBe('');
    expect(added.code).toBe(0);
    expect(added.out).toContain('added shop acme (ACME Supplies, CZK)');
    const [shop] = await listed(dataDir);
    expect(shop).toEqual({
      id: 'acme',
      name: 'ACME Supplies',
      currency: 'CZK',
      returnPolicy: {
        returnsAccepted: true,
        returnPeriodDays: 14,
        restockingFee: { value: 125, decimalDigits: 3 },
        conditions: [{ lang: 'en', value: 'Unopened goods only' }],
      },
      shippingCosts: {
        standard: { amount: { value: 120, decimalDigits: 0 }, currency: 'CZK' },
        freeShippingFrom: { amount: { value: 2500, decimalDigits: 0 }, currency: 'CZK' },
        countries: ['CZ', 'SK'],
      },
      minimumOrderValue: { amount: { amount: { value: 100050, decimalDigits: 2 }, currency: 'CZK' } },
      articles: 0,
    });
    const table = await run(['shops', 'list', '--data-dir', dataDir]);
    expect(table.out.split('\n')[1]).toMatch(
      /^acme\s+ACME Supplies\s+CZK\s+0\s+14 days\s+120 CZK\s+2500 CZK\s+1000.50 CZK$/,
    );
  });

  it('refuses a second add of the same id and an add without a name, changing nothing', async () => {
    const dataDir = freshDataDir();
    expect((await run(['shops', 'add', 'acme', '--name', 'First', '--data-dir', dataDir])).code).toBe(0);
    const again = await run(['shops', 'add', 'acme', '--name', 'Second', '--data-dir', dataDir]);
    expect(again.code).toBe(1);
    expect(again.err).toContain('exists already; change it with: triad shops update acme');
    const nameless = await run(['shops', 'add', 'other', '--data-dir', dataDir]);
    expect(nameless.code).toBe(2);
    expect(nameless.err).toContain('--name');
    expect((await listed(dataDir)).map((s) => [s.id, s.name])).toEqual([['acme', 'First']]);
  });

  it('reads the whole record from --from-json and reports every violation of a bad one with exit 1', async () => {
    const dataDir = freshDataDir();
    const good = path.join(dir, 'good-shop.json');
    writeFileSync(
      good,
      JSON.stringify({
        name: 'From File',
        returnPolicy: { returnsAccepted: false },
        shippingCosts: { countries: ['DE'] },
      }),
    );
    expect((await run(['shops', 'add', 'filed', '--from-json', good, '--data-dir', dataDir])).code).toBe(0);
    const [shop] = await listed(dataDir);
    expect(shop?.returnPolicy).toMatchObject({ returnsAccepted: false, returnPeriodDays: 0 });
    const bad = path.join(dir, 'bad-shop.json');
    writeFileSync(bad, JSON.stringify({ name: 'Bad', currency: 'eur', shippingCosts: { countries: ['Germany'] } }));
    const refused = await run(['shops', 'add', 'bad', '--from-json', bad, '--data-dir', dataDir]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('/currency: must be an ISO 4217 code');
    expect(refused.err).toContain('/shippingCosts/countries:');
    expect(refused.err).toContain('nothing was changed');
    expect((await listed(dataDir)).map((s) => s.id)).toEqual(['filed']);
  });

  it('updates only the members given and refuses an unknown shop', async () => {
    const dataDir = freshDataDir();
    await run([
      'shops',
      'add',
      'acme',
      '--name',
      'ACME',
      '--shipping',
      '4.95',
      '--free-shipping-from',
      '150',
      '--data-dir',
      dataDir,
    ]);
    const updated = await run([
      'shops',
      'update',
      'acme',
      '--free-shipping-from',
      'none',
      '--minimum-order',
      '50',
      '--data-dir',
      dataDir,
    ]);
    expect(updated.code).toBe(0);
    const [shop] = await listed(dataDir);
    expect(shop?.name).toBe('ACME');
    expect(shop?.shippingCosts).toEqual({
      standard: { amount: { value: 495, decimalDigits: 2 }, currency: 'EUR' },
      countries: [],
    });
    expect(shop?.minimumOrderValue.amount.amount).toEqual({ value: 50, decimalDigits: 0 });
    const unknown = await run(['shops', 'update', 'nope', '--name', 'X', '--data-dir', dataDir]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('unknown shop nope; add it with: triad shops add nope');
  });

  it('refuses a currency change that leaves amounts in the old currency', async () => {
    const dataDir = freshDataDir();
    await run(['shops', 'add', 'acme', '--name', 'ACME', '--data-dir', dataDir]);
    const refused = await run(['shops', 'update', 'acme', '--currency', 'CZK', '--data-dir', dataDir]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("/shippingCosts/standard/currency: must be the shop's currency CZK");
    const moved = await run([
      'shops',
      'update',
      'acme',
      '--currency',
      'CZK',
      '--shipping',
      '120',
      '--minimum-order',
      '0',
      '--data-dir',
      dataDir,
    ]);
    expect(moved.code).toBe(0);
    expect((await listed(dataDir))[0]?.currency).toBe('CZK');
  });

  it('imports a catalog into an added shop, refuses to remove it with articles, then removes both', async () => {
    const dataDir = freshDataDir();
    await run(['shops', 'add', 'acme', '--name', 'ACME', '--data-dir', dataDir]);
    const lines = (await run(['catalog', 'generate', '--articles', '3'])).out;
    const file = path.join(dir, 'acme.jsonl');
    writeFileSync(file, lines);
    const imported = await run(['catalog', 'import', file, '--shop', 'acme', '--data-dir', dataDir]);
    expect(imported.err).toBe('');
    expect(imported.out).toContain('imported 3');
    const stored = await listed(dataDir);
    expect(stored.map((s) => [s.id, s.name, s.articles])).toEqual([['acme', 'ACME', 3]]);

    const refused = await run(['shops', 'remove', 'acme', '--data-dir', dataDir]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('has 3 articles; give --with-articles');
    expect((await listed(dataDir)).map((s) => s.articles)).toEqual([3]);

    const removed = await run(['shops', 'remove', 'acme', '--with-articles', '--data-dir', dataDir]);
    expect(removed.code).toBe(0);
    expect(removed.out).toContain('removed shop acme and its 3 articles');
    expect(await listed(dataDir)).toEqual([]);
    const gone = await run(['shops', 'remove', 'acme', '--data-dir', dataDir]);
    expect(gone.code).toBe(1);
    expect(gone.err).toContain('unknown shop acme');
  });

  it('tells catalog import to add an unknown shop first and keeps the demo shops importable', async () => {
    const dataDir = freshDataDir();
    const file = path.join(dir, 'demo.jsonl');
    writeFileSync(file, (await run(['catalog', 'generate', '--articles', '2'])).out);
    const unknown = await run(['catalog', 'import', file, '--shop', 'newcomer', '--data-dir', dataDir]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('triad shops add newcomer');
    const demo = await run(['catalog', 'import', file, '--shop', 'office-direct', '--data-dir', dataDir]);
    expect(demo.out).toContain('imported 2');
  });

  it('refuses bad option values as usage errors and shows examples in --help', async () => {
    const bad = await run(['shops', 'add', 'acme', '--name', 'A', '--shipping', '-1', '--data-dir', freshDataDir()]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('expected an amount');
    const help = await run(['shops', 'add', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('--free-shipping-from');
    expect(help.out).toContain('Examples:');
  });
});
