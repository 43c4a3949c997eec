/**
 * The delta part of the content API benchmark (`content-api-bench.ts`), on a store holding the
 * whole generated catalog, its searches warm first: the `T_UPDATE_PRICES` files and the
 * `T_UPDATE_PRODUCTS` file imported in this process (seconds against the aims of issue 12), the
 * first search after the product delta against the same search warm, then a price file imported again by a
 * child process (`content-delta-import.ts`, as the CLI beside the running service) while this
 * process searches (p50/p99/max), and then small price files of the same shop, one at a time, each
 * changing prices again: after each, the first search (each round another query) against the same
 * search once warm, the difference reported as median and largest of the rounds. It measures what
 * a reader pays to take another process's commit (the changed segment's chunks, what it derives
 * from them, the pages SQLite reads again) on top of an ordinary search. With
 * `BENCH_CPU_PROFILE=<dir>` this process's CPU profile of each step is written there
 * (`<engine>-prices`, `-products`, `-after-products`, `-during`, `-first-<round>.cpuprofile`).
 */
import { spawn } from 'node:child_process';
import { createReadStream, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenDatabaseOptions } from '@triad/db';
import { CATALOG_READ_BYTES, importCatalog, type SearchBackend } from '@triad/content-api-service';
import { percentile } from './bench-utils.js';
import type { DeltaFile, DeltaFiles } from './content-delta-files.js';

/** One line of the delta table: engine, what, the number, the aim. */
export type DeltaRow = [string, string, string, string];

/** Searches of the benchmark: `get` answers one URL and gives its latency in ms (throws unless 200). */
export interface BenchSearches {
  get(url: string): Promise<number>;
  /** A URL of an ordinary full-text search, the `i`-th of a few. */
  url(i: number): string;
  /** An `i` whose search's last word has a digit. */
  readonly digitText: number;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const WARM_RUNS = 30;
/** Searches `BenchSearches.url` repeats after (at most). */
const SEARCH_TEXTS = 8;
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE;

/** Runs the delta steps on `backend` (the store `target` names, holding the whole catalog); one row each. */
export async function benchDeltas(
  engine: string,
  backend: SearchBackend,
  files: DeltaFiles,
  target: OpenDatabaseOptions,
  searches: BenchSearches,
): Promise<DeltaRow[]> {
  const rows: DeltaRow[] = [];
  const count = await backend.countArticles();
  // Warm, as a serving reader is before a delta: what the searches below derive is held.
  for (let i = 0; i < 2 * SEARCH_TEXTS; i += 1) await searches.get(searches.url(i));
  const pricesProfile = await startProfile();
  let start = process.hrtime.bigint();
  let changed = 0;
  for (const f of files.prices) changed += (await importHere(backend, f, 'prices')).imported;
  let seconds = elapsed(start);
  await pricesProfile?.(`${engine}-prices`);
  const touched = files.prices.reduce((n, f) => n + f.prices, 0);
  if (changed !== touched || (await backend.countArticles()) !== count)
    console.log(`!!! ${engine}: T_UPDATE_PRICES changed ${changed} of ${touched}, or the count moved`);
  rows.push([
    engine,
    `T_UPDATE_PRICES, ${touched} articles (${files.prices.length} shop files)`,
    `${seconds.toFixed(2)} s`,
    '<= 5 s for 100,000',
  ]);

  const p = files.products;
  const productsProfile = await startProfile();
  start = process.hrtime.bigint();
  const products = await importHere(backend, p, 'products');
  seconds = elapsed(start);
  await productsProfile?.(`${engine}-products`);
  if (
    products.imported !== p.added + p.updated ||
    products.deleted !== p.deleted ||
    (await backend.countArticles()) !== count + p.added - p.deleted
  )
    console.log(`!!! ${engine}: T_UPDATE_PRODUCTS did not add, update and delete what the file says`);
  rows.push([
    engine,
    `T_UPDATE_PRODUCTS, ${p.added + p.updated + p.deleted} items ` +
      `(${p.added} new, ${p.updated} update, ${p.deleted} delete)`,
    `${seconds.toFixed(2)} s`,
    '<= 2 s for 10,000',
  ]);

  // The first search after the product delta (words changed: what a reader derives from them is
  // taken again), against the same search warm; one whose last word has a digit, so both
  // dictionaries of the changed shop's words are taken.
  const afterProducts = searches.url(searches.digitText);
  const afterProfile = await startProfile();
  const firstAfter = await searches.get(afterProducts);
  await afterProfile?.(`${engine}-after-products`);
  const warmAfter: number[] = [];
  for (let i = 0; i < WARM_RUNS; i += 1) warmAfter.push(await searches.get(afterProducts));
  warmAfter.sort((a, b) => a - b);
  const warmAfterMs = percentile(warmAfter, 50);
  rows.push([
    engine,
    `first search after the T_UPDATE_PRODUCTS vs the same search warm (p50), first/warm ms: ` +
      `${firstAfter.toFixed(1)}/${warmAfterMs.toFixed(1)}`,
    `+${(firstAfter - warmAfterMs).toFixed(1)} ms`,
    '<= 20 ms more',
  ]);

  // Searches while another process imports the largest price file.
  const largest = files.prices[0]!;
  const during: number[] = [];
  const profile = await startProfile();
  const child = importElsewhere(target, largest);
  let done = false;
  void child.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; !done; i += 1) {
    during.push(await searches.get(searches.url(i)));
    // A search on SQLite may run in microtasks alone: a turn of the event loop lets the child's exit in.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const other = await child;
  await profile?.(`${engine}-during`);
  during.sort((a, b) => a - b);
  rows.push([
    engine,
    `search during a T_UPDATE_PRICES of ${largest.prices} (other process, ${other.seconds.toFixed(1)} s), ` +
      `${during.length} searches`,
    `p50 ${percentile(during, 50).toFixed(1)}, p99 ${percentile(during, 99).toFixed(1)}, ` +
      `max ${during[during.length - 1]!.toFixed(1)} ms`,
    'p99 < 100 ms',
  ]);

  // The first search after another process changed one shop's prices, against the same search warm.
  const extra: number[] = [];
  const report: string[] = [];
  for (const [round, f] of files.firsts.entries()) {
    await importElsewhere(target, f);
    const url = searches.url(round);
    const firstProfile = await startProfile();
    const first = await searches.get(url);
    await firstProfile?.(`${engine}-first-${round}`);
    const warm: number[] = [];
    for (let i = 0; i < WARM_RUNS; i += 1) warm.push(await searches.get(url));
    warm.sort((a, b) => a - b);
    const normal = percentile(warm, 50);
    extra.push(first - normal);
    report.push(`${first.toFixed(1)}/${normal.toFixed(1)}`);
  }
  extra.sort((a, b) => a - b);
  rows.push([
    engine,
    `first search after a delta of ${files.firsts[0]?.prices} prices of shop ${files.firsts[0]?.shop.id} vs the same ` +
      `search warm (p50), ${extra.length} rounds, first/warm ms: ${report.join(' ')}`,
    `median +${percentile(extra, 50).toFixed(1)}, max +${extra[extra.length - 1]!.toFixed(1)} ms`,
    '<= 20 ms more',
  ]);
  return rows;
}

async function importHere(
  backend: SearchBackend,
  f: DeltaFile,
  mode: 'prices' | 'products',
): Promise<{ imported: number; deleted: number }> {
  const result = await importCatalog(backend, createReadStream(f.file, { highWaterMark: CATALOG_READ_BYTES }), {
    format: 'bmecat',
    shop: f.shop,
    mode,
  });
  if (!result.committed) throw new Error(`${f.file}: nothing committed: ${result.refusal}`);
  return { imported: result.imported, deleted: result.deleted };
}

/** Imports `f` in a child process; resolves with what it printed. */
function importElsewhere(target: OpenDatabaseOptions, f: DeltaFile): Promise<{ seconds: number }> {
  const child = spawn(
    process.execPath,
    [
      '--conditions=source',
      '--import',
      'tsx',
      path.join(here, 'content-delta-import.ts'),
      JSON.stringify({ db: target, file: f.file, shopId: f.shop.id }),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`delta import exited with ${code}: ${out}`));
      const printed = JSON.parse(out) as { seconds: number; committed: boolean };
      if (!printed.committed) return reject(new Error(`delta import committed nothing: ${out}`));
      resolve(printed);
    });
  });
}

/** With `BENCH_CPU_PROFILE`, starts this process's CPU profile; the function returned writes it as `<name>`. */
async function startProfile(): Promise<((name: string) => Promise<void>) | undefined> {
  if (!PROFILE_DIR) return undefined;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return async (name) => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(path.join(PROFILE_DIR, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  };
}

function elapsed(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}
