import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SQLITE_FILE, openContentApiCore } from '../content-api-core.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** A BMEcat 1.2 catalog written for this test: one good article, one without ORDER_UNIT, elements Triad drops. */
const CATALOG = `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="1.2">
  <HEADER>
    <CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>K1</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION>
      <TERRITORY>DE</TERRITORY><CURRENCY>EUR</CURRENCY></CATALOG>
  </HEADER>
  <T_NEW_CATALOG>
    <ARTICLE>
      <SUPPLIER_AID>K-1</SUPPLIER_AID>
      <ARTICLE_DETAILS><DESCRIPTION_SHORT>Klemme</DESCRIPTION_SHORT><SEGMENT>Elektro</SEGMENT></ARTICLE_DETAILS>
      <ARTICLE_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></ARTICLE_ORDER_DETAILS>
      <ARTICLE_PRICE_DETAILS><ARTICLE_PRICE price_type="net_customer">
        <PRICE_AMOUNT>1.20</PRICE_AMOUNT><TAX>0.19</TAX></ARTICLE_PRICE></ARTICLE_PRICE_DETAILS>
    </ARTICLE>
    <ARTICLE>
      <SUPPLIER_AID>K-2</SUPPLIER_AID>
      <ARTICLE_DETAILS><DESCRIPTION_SHORT>Klemme ohne Einheit</DESCRIPTION_SHORT></ARTICLE_DETAILS>
      <ARTICLE_ORDER_DETAILS><QUANTITY_MIN>1</QUANTITY_MIN></ARTICLE_ORDER_DETAILS>
      <ARTICLE_PRICE_DETAILS><ARTICLE_PRICE price_type="net_customer">
        <PRICE_AMOUNT>1.30</PRICE_AMOUNT><TAX>0.19</TAX></ARTICLE_PRICE></ARTICLE_PRICE_DETAILS>
    </ARTICLE>
  </T_NEW_CATALOG>
</BMECAT>
`;

function triad(args: readonly string[], dataDir: string): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'apps/cli/src/bin.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: '', TRIAD_DATA_DIR: dataDir },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out, err })));
}

/** A hash of every file of the data directory, by name. */
function snapshot(dataDir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dataDir)
      .sort()
      .map((name) => [
        name,
        createHash('sha256')
          .update(readFileSync(path.join(dataDir, name)))
          .digest('hex'),
      ]),
  );
}

describe('triad catalog check', () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'catalog-check-'));
  const file = path.join(directory, 'klemmen.xml');
  const dataDir = path.join(directory, 'data');
  beforeAll(async () => {
    writeFileSync(file, CATALOG);
    // A store with the shop and one import already recorded.
    expect((await triad(['shops', 'add', 'klemmen', '--name', 'Klemmen'], dataDir)).code).toBe(0);
    expect((await triad(['catalog', 'import', file, '--shop', 'klemmen', '--max-rejects', '1'], dataDir)).code).toBe(1);
  }, 180_000);
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('reports refusals in BMEcat words, warnings and counts, exit 1, and writes nothing', async () => {
    const before = snapshot(dataDir);
    const r = await triad(['catalog', 'check', file, '--shop', 'klemmen', '--max-rejects', '1'], dataDir);
    expect(r.code).toBe(1);
    const lineOf = (text: string) => CATALOG.split('\n').findIndex((l) => l.includes(text)) + 1;
    expect(r.err).toContain(
      `line ${lineOf('<SUPPLIER_AID>K-2') - 1}, SUPPLIER_AID K-2: ` +
        'ARTICLE_ORDER_DETAILS/ORDER_UNIT: is missing or empty: ' +
        'give a UN/ECE Recommendation 20 unit code',
    );
    expect(r.err).not.toContain('/orderDetails');
    expect(r.err).toContain(`warning: line ${lineOf('<SEGMENT>')}: ARTICLE/ARTICLE_DETAILS/SEGMENT: SEGMENT (once)`);
    expect(r.err).toContain(`warning: line ${lineOf('<TERRITORY>')}: HEADER/CATALOG/TERRITORY:`);
    expect(r.out).toMatch(/would import 1, reject 1, \d+ warnings \(replace\); checked against shop klemmen/);
    expect(r.out).toContain('catalog: K1 version 1\n');
    // The header is said once, not again among the decisions.
    expect(r.out).not.toContain('decision: catalog');
    // Nothing written: the store's files are the same bytes, and no run was recorded.
    expect(snapshot(dataDir)).toEqual(before);
    const store = await openContentApiCore({ dataDir });
    try {
      expect(await store.importRuns.list('klemmen')).toHaveLength(1);
    } finally {
      await store.close();
    }
  }, 180_000);

  it('checks against the default shop settings without --shop, as JSON', async () => {
    const empty = path.join(directory, 'no-store');
    const r = await triad(['catalog', 'check', file, '--format', 'json', '--max-rejects', '1'], empty);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out) as {
      shopId: string | null;
      outcome: string;
      counts: { records: number; imported: number; refused: number };
      refusedRecords: { line: number; supplierArticleId: string | null; violations: { path: string }[] }[];
      warnings: { kind: string; path: string; count: number }[];
      decisions: Record<string, unknown>;
      catalog: Record<string, string | null> | null;
    };
    expect(report).toMatchObject({
      shopId: null,
      outcome: 'committed-with-refusals',
      counts: { records: 2, imported: 1, refused: 1 },
    });
    expect(report.refusedRecords).toEqual([
      expect.objectContaining({
        supplierArticleId: 'K-2',
        violations: [expect.objectContaining({ path: 'ARTICLE_ORDER_DETAILS/ORDER_UNIT' })],
      }),
    ]);
    expect(report.warnings.map((w) => [w.kind, w.path, w.count])).toContainEqual([
      'unkept-element',
      'ARTICLE/ARTICLE_DETAILS/SEGMENT',
      1,
    ]);
    expect(typeof report.decisions).toBe('object');
    expect(report.catalog).toMatchObject({ catalogId: 'K1', catalogVersion: '1', supplierName: null });
    // Without --shop no store is opened at all.
    expect(() => readdirSync(empty)).toThrow();
  }, 180_000);

  it('writes SARIF 2.1.0: one result per refusal and warning, with its line, rules by kind', async () => {
    const r = await triad(
      ['catalog', 'check', file, '--format', 'sarif', '--max-rejects', '1'],
      path.join(directory, 'none'),
    );
    expect(r.code).toBe(1);
    const sarif = JSON.parse(r.out) as {
      version: string;
      runs: {
        tool: { driver: { rules: { id: string }[] } };
        results: {
          ruleId: string;
          level: string;
          locations: { physicalLocation: { region?: { startLine: number } } }[];
        }[];
      }[];
    };
    expect(sarif.version).toBe('2.1.0');
    const [run] = sarif.runs;
    const errors = run?.results.filter((x) => x.level === 'error') ?? [];
    expect(errors.map((e) => e.ruleId)).toEqual(['refused-record']);
    expect(errors[0]?.locations[0]?.physicalLocation.region?.startLine).toBe(
      // The line of the item's start tag, just above its SUPPLIER_AID.
      CATALOG.split('\n').findIndex((l) => l.includes('<SUPPLIER_AID>K-2')),
    );
    expect(run?.results.some((x) => x.ruleId === 'unkept-element' && x.level === 'warning')).toBe(true);
    expect(run?.tool.driver.rules.map((x) => x.id).sort()).toEqual(['refused-record', 'unkept-element']);
  }, 180_000);

  it('exits 3 for malformed XML and 2 for an unknown shop, and shows examples in --help', async () => {
    const broken = path.join(directory, 'broken.xml');
    writeFileSync(broken, CATALOG.slice(0, 400));
    expect((await triad(['catalog', 'check', broken], dataDir)).code).toBe(3);
    // The default limit refuses 1 of 2 records, as catalog import would.
    expect((await triad(['catalog', 'check', file], dataDir)).code).toBe(3);
    const unknown = await triad(['catalog', 'check', file, '--shop', 'nobody'], dataDir);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown shop nobody');
    const help = await triad(['catalog', 'check', '--help'], dataDir);
    expect(help.out).toContain('triad catalog check catalog.xml --shop labtools --format sarif');
    expect(CONTENT_SQLITE_FILE).toBe('content.sqlite');
  }, 180_000);
});
