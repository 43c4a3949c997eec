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
import { createReadStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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

async function benchImport(engine: string, format: CatalogFormat, options: OpenDatabaseOptions): Promise<void> {
  const database = openDatabase<ContentTables>(options);
  const storage = contentStorageFor(database);
  await migrateToLatest(database, { migrations: storage.migrations, tableName: CONTENT_MIGRATION_TABLE });
  const backend = storage.backend;
  const rss = new RssByHalf(ARTICLES);
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
      'RSS before MB',
      'peak RSS 1st half',
      'peak RSS 2nd half',
    ],
    rows,
  );
  console.log(`\nload average at the end: ${loadAverage()} (${os.cpus().length} cores)`);
}

await main();
