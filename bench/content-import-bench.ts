/**
 * Benchmark of catalog import alone (services/content-api, decision 0053): one shop's generated
 * catalog, written once as JSON Lines and as BMEcat 2005, imported from the file into an empty
 * SQLite store and PostgreSQL schema. Prints articles/s, the CPU of this process (every thread)
 * and of its PostgreSQL backends per article, and peak RSS in each half of the import (flat
 * memory: the second half is no higher than the first).
 *
 *   BENCH_ARTICLES=200000 npm run bench -- content-import
 *   BENCH_ENGINES=sqlite BENCH_FORMATS=bmecat npm run bench -- content-import
 *   BENCH_CATALOG_DIR=/tmp/x npm run bench -- content-import   (keeps and reuses the files)
 *
 * `TRIAD_BENCH_DATABASE_URL` or `TRIAD_TEST_DATABASE_URL` names the PostgreSQL server.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type Database, type OpenDatabaseOptions } from '@triad/db';
import {
  CATALOG_READ_BYTES,
  CONTENT_MIGRATION_TABLE,
  CONTENT_SQLITE_PAGE_SIZE,
  contentStorageFor,
  generateCatalog,
  importCatalog,
  type CatalogFormat,
  type ContentTables,
} from '@triad/content-api-service';
import { cpuSeconds, loadAverage, mainThreadCpuSeconds, printTable } from './bench-utils.js';
import { RssByHalf, writeCatalogFiles } from './content-catalog-files.js';

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 200_000);
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',');
const FORMATS = (process.env.BENCH_FORMATS ?? 'jsonl,bmecat').split(',') as CatalogFormat[];
const MB = 1024 * 1024;

const kept = process.env.BENCH_CATALOG_DIR;
const dir = kept ?? mkdtempSync(path.join(os.tmpdir(), 'content-import-bench-'));
// Every fourth generated article is the first shop's.
const catalog = generateCatalog({ articles: ARTICLES * 4, seed: 1 });
const shop = catalog.shops[0]!;
const fileOf = (format: CatalogFormat) =>
  path.join(dir, `${shop.id}-${ARTICLES}.${format === 'jsonl' ? 'jsonl' : 'xml'}`);
const rows: (string | number)[][] = [];

/** Writes the shop's articles as JSON Lines and BMEcat, unless a kept directory holds them. */
async function writeFiles(): Promise<void> {
  if (FORMATS.every((f) => existsSync(fileOf(f)))) return;
  mkdirSync(dir, { recursive: true });
  await writeCatalogFiles([shop], catalog.articles(), (_shop, format) => fileOf(format));
}

/** CPU seconds of the PostgreSQL backends serving this process (found by their client ports). */
function postgresCpu(database: Database<ContentTables>): Promise<number> {
  return sql<{ pid: number; port: number }>`select pid, client_port as port from pg_stat_activity`
    .execute(database.db)
    .then(({ rows: backends }) => {
      const mine = new Set(
        execFileSync('ss', ['-tnpH', 'dst', ':55432'], { encoding: 'utf8' })
          .split('\n')
          .filter((l) => l.includes(`pid=${process.pid},`))
          .map((l) => Number(l.split(/\s+/)[3]!.split(':').pop())),
      );
      let seconds = 0;
      for (const b of backends) if (mine.has(b.port)) seconds += cpuSeconds(b.pid);
      return seconds;
    });
}

/** One thread's times (ms) from `/proc/self/task/<tid>/schedstat`: running, waiting for a core. */
interface ThreadTime {
  /** Started after sampling began (a parse worker, or its module loader when run from the sources). */
  readonly born: boolean;
  readonly first: number;
  last: number;
  readonly run0: number;
  readonly wait0: number;
  run: number;
  wait: number;
}

/**
 * Where the threads of this process spent an import (Linux schedstat, sampled every 50 ms):
 * running, waiting for a core, or asleep (waiting for another thread, a lock or I/O). Threads
 * started during the import are its parse workers; the others besides the main thread are V8's
 * and libuv's helpers (compiling, collecting garbage).
 */
class ThreadTimes {
  readonly #threads = new Map<string, ThreadTime>();
  readonly #timer: NodeJS.Timeout;
  #started = false;

  constructor() {
    this.sample();
    this.#started = true;
    this.#timer = setInterval(() => this.sample(), 50);
  }

  sample(): void {
    const now = performance.now();
    for (const tid of readdirSync('/proc/self/task')) {
      let text: string;
      try {
        text = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8');
      } catch {
        continue; // the thread ended
      }
      const [run, wait] = text.split(' ').map((n) => Number(n) / 1e6) as [number, number];
      const seen = this.#threads.get(tid);
      if (seen) {
        seen.last = now;
        seen.run = run;
        seen.wait = wait;
      } else {
        const born = this.#started;
        this.#threads.set(tid, {
          born,
          first: now,
          last: now,
          run0: born ? 0 : run,
          wait0: born ? 0 : wait,
          run,
          wait,
        });
      }
    }
  }

  /**
   * Stops sampling: CPU ms of the workers (threads started since, busier than a tenth of the
   * busiest) and of the helpers; the share of their lives the main thread and the workers slept.
   */
  stop(): { workers: number; helpers: number; mainAsleep: number; workersAsleep: number } {
    clearInterval(this.#timer);
    this.sample();
    const all = [...this.#threads].map(([tid, t]) => {
      const run = t.run - t.run0;
      const life = t.last - t.first;
      return { tid, born: t.born, run, life, asleep: Math.max(0, life - run - (t.wait - t.wait0)) };
    });
    const main = all.find((t) => t.tid === String(process.pid))!;
    const busiest = Math.max(0, ...all.filter((t) => t.born).map((t) => t.run));
    const workers = all.filter((t) => t.born && t.run >= busiest / 10);
    const sum = (list: typeof all, key: 'run' | 'life' | 'asleep') => list.reduce((n, t) => n + t[key], 0);
    return {
      workers: sum(workers, 'run'),
      helpers: sum(
        all.filter((t) => t !== main && !t.born),
        'run',
      ),
      mainAsleep: main.asleep / main.life,
      workersAsleep: sum(workers, 'asleep') / sum(workers, 'life'),
    };
  }
}

async function benchImport(engine: string, format: CatalogFormat, options: OpenDatabaseOptions): Promise<void> {
  const database = openDatabase<ContentTables>(options);
  const storage = contentStorageFor(database);
  await migrateToLatest(database, { migrations: storage.migrations, tableName: CONTENT_MIGRATION_TABLE });
  const backend = storage.backend;
  const rss = new RssByHalf(ARTICLES);
  const threads = new ThreadTimes();
  const pgBefore = engine === 'postgres' ? await postgresCpu(database) : 0;
  const cpu = process.cpuUsage();
  const mainBefore = mainThreadCpuSeconds();
  const start = process.hrtime.bigint();
  const result = await importCatalog(backend, createReadStream(fileOf(format), { highWaterMark: CATALOG_READ_BYTES }), {
    format,
    shop,
    onProgress: (records) => rss.progress(records),
    progressEvery: 5000,
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const used = process.cpuUsage(cpu);
  const main = mainThreadCpuSeconds() - mainBefore;
  const pg = engine === 'postgres' ? (await postgresCpu(database)) - pgBefore : 0;
  rss.stop();
  const times = threads.stop();
  const imported = result.imported;
  if (!result.committed || result.failed.length > 0) console.log(`!!! ${engine} ${format}: not all imported`);
  const perArticle = (s: number) => ((s * 1e6) / imported).toFixed(0);
  rows.push([
    engine,
    format === 'jsonl' ? 'JSON Lines' : 'BMEcat 2005',
    imported,
    seconds,
    Math.round(imported / seconds),
    perArticle((used.user + used.system) / 1e6),
    perArticle(main),
    engine === 'postgres' ? perArticle(pg) : '-',
    perArticle(times.workers / 1000),
    perArticle(times.helpers / 1000),
    Math.round(100 * times.mainAsleep),
    Math.round(100 * times.workersAsleep),
    rss.before / MB,
    rss.peaks[0] / MB,
    rss.peaks[1] / MB,
  ]);
  console.log(`${engine}: imported ${imported} from ${format} in ${seconds.toFixed(1)} s`);
  await backend.close();
}

async function main(): Promise<void> {
  console.log(`catalog import: ${ARTICLES} generated articles of one shop; load average ${loadAverage()}`);
  await writeFiles();
  for (const format of FORMATS) {
    if (ENGINES.includes('sqlite')) {
      const file = path.join(dir, `content-${format}-${process.pid}.sqlite`);
      await benchImport('sqlite', format, { sqliteFile: file, sqlitePageSize: CONTENT_SQLITE_PAGE_SIZE });
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    }
    const url = process.env.TRIAD_BENCH_DATABASE_URL || process.env.TRIAD_TEST_DATABASE_URL;
    if (ENGINES.includes('postgres') && url) {
      const schema = `content_import_bench_${process.pid}_${format}`;
      try {
        await benchImport('postgres', format, { url, schema });
      } finally {
        const admin = openDatabase({ url });
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
        await admin.close();
      }
    }
  }
  if (!kept) rmSync(dir, { recursive: true, force: true });
  console.log();
  printTable(
    [
      'engine',
      'import from',
      'articles',
      'seconds',
      'articles/s',
      'CPU µs/article',
      'main thread µs/article',
      'PostgreSQL µs/article',
      'workers µs/article',
      'V8 helpers µs/article',
      'main asleep %',
      'workers asleep %',
      'RSS before MB',
      'peak RSS 1st half',
      'peak RSS 2nd half',
    ],
    rows,
  );
  console.log(`\nload average at the end: ${loadAverage()} (${os.cpus().length} cores)`);
}

await main();
