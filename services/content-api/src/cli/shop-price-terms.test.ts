/**
 * `triad shops add|update` with price terms, then `triad catalog import` of a BMEcat file that
 * relies on them, as real processes on SQLite and PostgreSQL: what a catalog manager runs.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createScratchDatabase, planPostgresSuite, type ScratchDatabase } from '@triad/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContentApiCore } from '../content-api-core.js';
import type { Article } from '../model/article.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

const price = (type: string, amount: string | undefined, extra = '') =>
  `<PRODUCT_PRICE price_type="${type}">${amount === undefined ? '' : `<PRICE_AMOUNT>${amount}</PRICE_AMOUNT>`}` +
  `<PRICE_CURRENCY>EUR</PRICE_CURRENCY>${extra}</PRODUCT_PRICE>`;

const product = (id: string, prices: string, order = '') =>
  `<PRODUCT><SUPPLIER_PID>${id}</SUPPLIER_PID>` +
  `<PRODUCT_DETAILS><DESCRIPTION_SHORT>Klemme ${id}</DESCRIPTION_SHORT></PRODUCT_DETAILS>` +
  `<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT>${order}</PRODUCT_ORDER_DETAILS>` +
  `${prices}</PRODUCT>\n`;

// Each step is a process of its own (a few seconds each from the sources).

/** One product per line after the header (line 5 on), BMEcat 2005. */
const CATALOG =
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  '<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">\n' +
  '<HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>K</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION>' +
  '</CATALOG><SUPPLIER><SUPPLIER_NAME>Klemmen AG</SUPPLIER_NAME></SUPPLIER></HEADER>\n' +
  '<T_NEW_CATALOG>\n' +
  // A gross list price from 10 pieces, with its tax in TAX_DETAILS, QUANTITY_MIN below the bound.
  product(
    'GROSS',
    '<PRODUCT_PRICE_DETAILS>' +
      price(
        'gros_list',
        '119.00',
        '<TAX_DETAILS><TAX_TYPE>vat</TAX_TYPE><TAX>0.19</TAX></TAX_DETAILS><LOWER_BOUND>10</LOWER_BOUND>',
      ) +
      '</PRODUCT_PRICE_DETAILS>',
    '<QUANTITY_MIN>5</QUANTITY_MIN>',
  ) +
  // No TAX: the shop's default; PRICE_FACTOR applies.
  product(
    'NOTAX',
    `<PRODUCT_PRICE_DETAILS>${price('net_list', '20.00', '<PRICE_FACTOR>0.5</PRICE_FACTOR>')}</PRODUCT_PRICE_DETAILS>`,
  ) +
  // The customer price expired in 2001: the list price is served.
  product(
    'EXPIRED',
    '<PRODUCT_PRICE_DETAILS><DATETIME type="valid_end_date"><DATE>2001-12-31</DATE></DATETIME>' +
      `${price('net_customer', '1.00', '<TAX>0.19</TAX>')}</PRODUCT_PRICE_DETAILS>` +
      `<PRODUCT_PRICE_DETAILS>${price('net_list', '7.50', '<TAX>0.19</TAX>')}</PRODUCT_PRICE_DETAILS>`,
  ) +
  // A supplier's own price type, not one the shop takes until told.
  product('OWN', `<PRODUCT_PRICE_DETAILS>${price('EK_ohne_MWST', '3.00', '<TAX>0.19</TAX>')}</PRODUCT_PRICE_DETAILS>`) +
  product(
    'NOAMOUNT',
    `<PRODUCT_PRICE_DETAILS>${price('net_list', undefined, '<TAX>0.19</TAX>')}</PRODUCT_PRICE_DETAILS>`,
  ) +
  '</T_NEW_CATALOG>\n</BMECAT>\n';

type Target = { readonly dataDir: string } | { readonly databaseUrl: string };

function triad(args: readonly string[], target: Target): Promise<{ code: number | null; out: string; err: string }> {
  const store = 'databaseUrl' in target ? ['--database-url', target.databaseUrl] : ['--data-dir', target.dataDir];
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', 'apps/cli/src/bin.ts', ...args, ...store],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DATABASE_URL: '', TRIAD_DATA_DIR: '' } },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out, err })));
}

async function articlesOf(target: Target, ids: readonly string[]): Promise<(Article | undefined)[]> {
  const store = await openContentApiCore({ ...target, dataDir: 'dataDir' in target ? target.dataDir : ROOT });
  try {
    return await Promise.all(ids.map((id) => store.backend.findArticle(`klemmen:${id}`)));
  } finally {
    await store.close();
  }
}

function suite(engine: string, setUp: () => Promise<Target>) {
  describe(`shop price terms through the CLI [${engine}]`, () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'shop-price-terms-'));
    const file = path.join(directory, 'klemmen.xml');
    let target: Target;
    beforeAll(async () => {
      target = await setUp();
      writeFileSync(file, CATALOG);
    });
    afterAll(() => rmSync(directory, { recursive: true, force: true }));

    it('imports what the default tax and price types allow, and refuses the rest in BMEcat words', async () => {
      const added = await triad(['shops', 'add', 'klemmen', '--name', 'Klemmen', '--default-tax', '7%'], target);
      expect(added.code, added.err).toBe(0);
      const imported = await triad(['catalog', 'import', file, '--shop', 'klemmen', '--max-rejects', '2'], target);
      expect(imported.code, imported.err).toBe(1);
      expect(imported.err).toContain(
        'line 8, SUPPLIER_AID OWN: PRODUCT_PRICE price_type "EK_ohne_MWST": ' +
          'shop klemmen takes net_customer, net_list, gros_list; ' +
          'allow one with: triad shops update klemmen --price-types net_customer,net_list,gros_list,EK_ohne_MWST',
      );
      // A record without PRICE_AMOUNT is kept, not searchable, and said so (decision 0033).
      expect(imported.err).toContain(
        'warning: line 9: PRODUCT: SUPPLIER_PID NOAMOUNT: kept, not searchable until it has a price valid now: ' +
          'PRODUCT_PRICE price_type="net_list" has no PRICE_AMOUNT',
      );
      expect(imported.out).toContain(', kept 1 not searchable, rejected 1 ');
      expect(imported.out).toContain('prices taken by price_type: gros_list 1, net_list 2');
      expect(imported.out).toContain("1 records gave no TAX and took shop klemmen's default tax 0.07");
      const [gross, noTax, expired] = await articlesOf(target, ['GROSS', 'NOTAX', 'EXPIRED']);
      expect(gross).toMatchObject({
        tax: { value: 19, decimalDigits: 2 },
        blockPrices: [{ lowerBound: 10, amount: { value: 10000, decimalDigits: 2 } }],
        orderDetails: { minimumOrderQuantity: 10 },
        priceConditions: { priceType: 'gros_list', territories: [] },
      });
      expect(noTax).toMatchObject({
        tax: { value: 7, decimalDigits: 2 },
        blockPrices: [{ lowerBound: 1, amount: { value: 10000, decimalDigits: 3 } }],
        priceConditions: { priceType: 'net_list', taxFromShop: true },
      });
      expect(expired?.blockPrices).toEqual([{ lowerBound: 1, amount: { value: 750, decimalDigits: 2 } }]);
    }, 240_000);

    it("takes the supplier's own price type once the shop allows it, and lists the terms", async () => {
      const updated = await triad(
        ['shops', 'update', 'klemmen', '--price-types', 'net_customer,net_list,gros_list,EK_ohne_MWST'],
        target,
      );
      expect(updated.code, updated.err).toBe(0);
      const imported = await triad(['catalog', 'import', file, '--shop', 'klemmen', '--max-rejects', '1'], target);
      // Nothing refused: the record without PRICE_AMOUNT is kept, not searchable.
      expect(imported.code, imported.err).toBe(0);
      expect(imported.out).toContain('EK_ohne_MWST 1');
      const [own] = await articlesOf(target, ['OWN']);
      expect(own?.priceConditions?.priceType).toBe('EK_ohne_MWST');
      const listed = await triad(['shops', 'list', '--json'], target);
      expect(JSON.parse(listed.out)).toMatchObject([
        {
          id: 'klemmen',
          defaultTax: { value: 7, decimalDigits: 2 },
          priceTypes: ['net_customer', 'net_list', 'gros_list', 'EK_ohne_MWST'],
        },
      ]);
      const reset = await triad(
        ['shops', 'update', 'klemmen', '--default-tax', 'none', '--price-types', 'default'],
        target,
      );
      expect(reset.code, reset.err).toBe(0);
      const after = JSON.parse((await triad(['shops', 'list', '--json'], target)).out) as Record<string, unknown>[];
      expect(after[0] && ['defaultTax' in after[0], 'priceTypes' in after[0]]).toEqual([false, false]);
      const bad = await triad(['shops', 'update', 'klemmen', '--default-tax', '19'], target);
      expect(bad.code).toBe(2);
      expect(bad.err).toContain('expected a rate from 0 to 1 such as 0.19');
    }, 240_000);
  });
}

let sqliteDataDir: string | undefined;
suite('sqlite', () =>
  Promise.resolve({ dataDir: (sqliteDataDir = mkdtempSync(path.join(os.tmpdir(), 'shop-price-terms-data-'))) }),
);
afterAll(() => {
  if (sqliteDataDir) rmSync(sqliteDataDir, { recursive: true, force: true });
});

const plan = planPostgresSuite(process.env);
if (plan.kind === 'run') {
  let scratch: ScratchDatabase | undefined;
  afterAll(async () => scratch?.drop());
  suite('postgres', async () => {
    scratch = await createScratchDatabase(plan.url, 'triad_shop_price_terms');
    return { databaseUrl: scratch.url };
  });
} else {
  describe.skip(`shop price terms through the CLI [postgres] ${plan.reason}`, () => {
    it('needs PostgreSQL', () => {});
  });
}
