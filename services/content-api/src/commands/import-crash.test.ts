/**
 * `triad catalog import` killed with SIGKILL part-way, on SQLite and PostgreSQL: the shop keeps
 * its previous catalog, whole, and the next import works. The kill is real (a child process).
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { openDatabase, type Database } from '@triad/db';
import { createScratchDatabase, planPostgresSuite, type ScratchDatabase } from '@triad/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContentApiCore } from '../content-api-core.js';
import { toJsonLinesRecord } from '../demo/catalog-writers.js';
import { generateCatalog } from '../demo/generate-catalog.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SHOP = 'office-direct';
const BIG = 60_000;

/**
 * Writes the generated articles (of `articles`, seed `seed`) that are priced in euros, as one JSON
 * Lines catalog for the EUR shop `SHOP` (a record in another currency would be refused); returns
 * how many.
 */
async function writeCatalog(file: string, articles: number, seed: number): Promise<number> {
  const out = createWriteStream(file);
  let written = 0;
  let lines: string[] = [];
  for (const article of generateCatalog({ articles, seed }).articles()) {
    if (article.currency !== 'EUR') continue;
    lines.push(`${toJsonLinesRecord(article)}\n`);
    written += 1;
    if (lines.length === 1000) {
      if (!out.write(lines.join(''))) await once(out, 'drain');
      lines = [];
    }
  }
  out.end(lines.join(''));
  await once(out, 'finish');
  return written;
}

/** Where the CLI and the test find the store. */
type Target = { readonly dataDir: string } | { readonly databaseUrl: string };

function importArgs(file: string, target: Target): string[] {
  return [
    'catalog',
    'import',
    file,
    '--shop',
    SHOP,
    ...('databaseUrl' in target ? ['--database-url', target.databaseUrl] : ['--data-dir', target.dataDir]),
  ];
}

function runImport(file: string, target: Target) {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', 'apps/cli/src/bin.ts', ...importArgs(file, target)],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, DATABASE_URL: '' } },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, stderr: () => stderr };
}

async function shopState(target: Target): Promise<{ articles: number; version: string | undefined }> {
  const store = await openContentApiCore({ ...target, dataDir: 'dataDir' in target ? target.dataDir : ROOT });
  try {
    return { articles: await store.backend.countArticles(), version: (await store.backend.shopVersions()).get(SHOP) };
  } finally {
    await store.close();
  }
}

/** Resolves once `evidence` says the import is writing (60 s at most, else it throws). */
async function writing(evidence: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await evidence())) {
    if (Date.now() > deadline) throw new Error('the import never started writing');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function crashSuite(engine: string, setUp: () => Promise<{ target: Target; evidence: () => Promise<boolean> }>) {
  describe(`a catalog import killed part-way [${engine}]`, () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'import-crash-'));
    const small = path.join(directory, 'small.jsonl');
    const big = path.join(directory, 'big.jsonl');
    let target: Target;
    let evidence: () => Promise<boolean>;
    let smallCount = 0;
    let bigCount = 0;
    beforeAll(async () => {
      ({ target, evidence } = await setUp());
      smallCount = await writeCatalog(small, 600, 3);
      bigCount = await writeCatalog(big, BIG, 4);
    }, 120_000);
    afterAll(() => rmSync(directory, { recursive: true, force: true }));

    it('leaves the previous catalog whole, and the next import succeeds', async () => {
      const first = runImport(small, target);
      expect((await first.exited).code, first.stderr()).toBe(0);
      const before = await shopState(target);
      expect(before.articles).toBe(smallCount);

      const killed = runImport(big, target);
      await writing(evidence);
      killed.child.kill('SIGKILL');
      const ended = await killed.exited;
      expect(ended.signal, 'the import ended by itself before the kill').toBe('SIGKILL');
      expect(await shopState(target)).toEqual(before);

      const again = runImport(big, target);
      expect((await again.exited).code, again.stderr()).toBe(0);
      const after = await shopState(target);
      expect(after.articles).toBe(bigCount);
      expect(after.version).not.toBe(before.version);
    }, 240_000);
  });
}

let sqliteDataDir: string | undefined;
crashSuite('sqlite', () => {
  const dataDir = (sqliteDataDir = mkdtempSync(path.join(os.tmpdir(), 'import-crash-data-')));
  const wal = path.join(dataDir, 'content.sqlite-wal');
  // Writing has begun once the write-ahead log holds several MiB of the new catalog.
  const evidence = () => {
    try {
      return Promise.resolve(statSync(wal).size > 8 * 1024 * 1024);
    } catch {
      return Promise.resolve(false);
    }
  };
  return Promise.resolve({ target: { dataDir }, evidence });
});
afterAll(() => {
  if (sqliteDataDir) rmSync(sqliteDataDir, { recursive: true, force: true });
});

const plan = planPostgresSuite(process.env);
if (plan.kind === 'run') {
  let scratch: ScratchDatabase | undefined;
  let watcher: Database | undefined;
  crashSuite('postgres', async () => {
    scratch = await createScratchDatabase(plan.url, 'triad_import_crash');
    const name = scratch.name;
    const server = (watcher = openDatabase({ url: plan.url, maxConnections: 1 }));
    // Writing has begun once a session of that database has held a writing transaction (one with
    // an xid) for half a second.
    const evidence = async () =>
      (
        await sql<{ writing: number }>`
          select count(*)::int as writing from pg_stat_activity
          where datname = ${name} and backend_xid is not null
            and xact_start < now() - interval '500 milliseconds'`.execute(server.db)
      ).rows[0]!.writing > 0;
    return { target: { databaseUrl: scratch.url }, evidence };
  });
  afterAll(async () => {
    await watcher?.close();
    await scratch?.drop();
  });
} else {
  describe.skipIf(plan.kind === 'skip')(`a catalog import killed part-way [postgres] ${plan.reason}`, () => {
    it('requires PostgreSQL', () => {
      throw new Error(plan.reason);
    });
  });
}
