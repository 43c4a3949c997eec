/**
 * Benchmark of the article content API (services/content-api): catalog import and search.
 *
 *   npm run bench -- content-api                       (100,000 articles)
 *   BENCH_ARTICLES=1000000 npm run bench -- content-api
 *   BENCH_ENGINES=sqlite npm run bench -- content-api  (only these engines)
 *   BENCH_DELTAS_ONLY=1 npm run bench -- content-api   (BMEcat import and the deltas only)
 *   BENCH_IMPORTS=bmecat npm run bench -- content-api  (no JSON Lines file nor import: BMEcat's
 *     import, the search cases and the deltas; halves a 10 M run's time and its files' space)
 *   BENCH_SEARCH_RUNS=600 npm run bench -- content-api (samples per search case; 100)
 *   BENCH_ARTICLES=10000000 BENCH_SQLITE_STORE=/tmp/x/content.sqlite npm run bench -- content-api
 *     (the search cases only, on an existing SQLite store of the same generated catalog: no files,
 *     no import, no deltas; the store is opened as it is, so work on a copy)
 *   BENCH_SEARCH_CASES='1 word|2 words' npm run bench -- content-api (only the cases matching it)
 *
 * Generates the demo catalog (`generateCatalog`, seed 1) as one JSON Lines and one BMEcat 2005
 * file per shop in a temporary directory, then for SQLite (a temporary file) and, when
 * `TRIAD_BENCH_DATABASE_URL` or `TRIAD_TEST_DATABASE_URL` names a PostgreSQL server, PostgreSQL (a
 * fresh schema, dropped afterwards):
 *
 *   - imports every shop's file with `importCatalog`, once from JSON Lines and once from BMEcat,
 *     each into an empty store: articles/s and the process's peak RSS while importing the first
 *     and the second half of the articles (flat memory: the two are alike);
 *   - measures `GET /api/articles` through `app.inject` (token, Accept and requisitioner header
 *     as a client sends them; every search computes count and all four facets): full text; full
 *     text + `fq` filters; no `q`; `offset` 8000; the two most frequent words of the catalog; and
 *     `GET /api/articles/{id}`: p50/p99/max latency in ms beside the aims of issue 6. The first
 *     search after the import is reported on its own (SQLite loads the shops' columns then);
 *   - one- and two-word queries with four facets under `matching=exact` and default matching,
 *     as typed and with typos or a started last word (issue 27, decision 0040), the first search
 *     under default matching (it reads the vocabulary) and the heap before and after it;
 *   - `GET /api/suggest` with every prefix of a few words and typos, each shop in turn;
 *   - on that store, the BMEcat deltas of issue 12 (`content-delta-steps.ts`): `T_UPDATE_PRICES`
 *     naming BENCH_PRICE_UPDATES articles (100,000; one file per shop, the first shops first),
 *     `T_UPDATE_PRODUCTS` of BENCH_PRODUCT_UPDATES items (10,000; new, update, delete), searches
 *     while another process imports a price file, and the first search after such an import.
 *
 * The catalog is generated lazily and written in batches: no more than 500 articles per shop
 * are in memory. Prints numbers and the load average; asserts nothing about time.
 * At 10,000,000 articles the catalog files alone take about 46 GB (27 GB BMEcat, 18 GB JSON Lines) and
 * a store 14 GB (SQLite) to 22 GB (PostgreSQL); the JSON Lines store is removed once measured, so
 * point TMPDIR (and PostgreSQL's data) at a disk with about 80 GB free.
 */
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type Database, type OpenDatabaseOptions } from '@triad/db';
import {
  buildContentApiApp,
  CONTENT_MEDIA_TYPE,
  CATALOG_READ_BYTES,
  CONTENT_MIGRATION_TABLE,
  contentStorageFor,
  CONTENT_SQLITE_PAGE_SIZE,
  createContentAuth,
  generateCatalog,
  importCatalog,
  loadContentApiConfig,
  REQUISITIONER_HEADER,
  type Article,
  type ContentTables,
  type BusinessShop,
  type CatalogFormat,
  type SearchBackend,
} from '@triad/content-api-service';
import { loadAverage, percentile, printTable } from './bench-utils.js';
import { RssByHalf, writeCatalogFiles } from './content-catalog-files.js';
import { benchDeltas, type BenchSearches, type DeltaRow } from './content-delta-steps.js';
import { writeDeltaFiles, type DeltaFiles } from './content-delta-files.js';
import { BOSCH_OR_TESA_UNDER_150, FOUR_FACETS, ONE_WORD, TWO_WORDS } from './content-queries.js';

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 100_000);
const PRICE_UPDATES = Number(process.env.BENCH_PRICE_UPDATES ?? 100_000);
const PRODUCT_UPDATES = Number(process.env.BENCH_PRODUCT_UPDATES ?? 10_000);
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',');
const DELTAS_ONLY = process.env.BENCH_DELTAS_ONLY === '1';
/** Whether the JSON Lines files are written and imported (`BENCH_IMPORTS`, default both formats). */
const IMPORT_JSONL = !DELTAS_ONLY && (process.env.BENCH_IMPORTS ?? 'jsonl,bmecat').split(',').includes('jsonl');
const SEARCH_RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 100);
/** An existing SQLite store of the catalog of BENCH_ARTICLES: its search cases only. */
const SQLITE_STORE = process.env.BENCH_SQLITE_STORE;
/** Only the search cases whose name matches this regular expression. */
const SEARCH_CASES = process.env.BENCH_SEARCH_CASES ? new RegExp(process.env.BENCH_SEARCH_CASES) : undefined;
const DETAIL_RUNS = 1000;
/**
 * Searches of each case before its samples: one round of every case's texts (at most 10), so a
 * p99 compares warm with warm, not the first search of a word (the lists of matches of each word
 * are kept per snapshot) with warm ones; the first search after an import or a delta has rows of
 * its own.
 */
const WARMUP = 10;
const MB = 1024 * 1024;

const catalog = generateCatalog({ articles: ARTICLES, seed: 1 });
const shops = catalog.shops;
const dir = mkdtempSync(path.join(os.tmpdir(), 'content-bench-'));
/** Without the JSON Lines import no JSON Lines file is read: none is kept (at 1 M articles they take 1.9 GB). */
const fileOf = (shop: BusinessShop, format: CatalogFormat) =>
  format === 'jsonl' && !IMPORT_JSONL
    ? '/dev/null'
    : path.join(dir, `${shop.id}.${format === 'jsonl' ? 'jsonl' : 'xml'}`);

type ImportRow = [string, string, string, number, string, number, number, number, string];
type SearchRow = [string, string, number, number | string, number | string, string];
const importRows: ImportRow[] = [];
const searchRows: SearchRow[] = [];
const deltaRows: DeltaRow[] = [];

/** Writes each shop's articles to its JSON Lines and BMEcat file in one pass over the catalog. */
function writeFiles(): Promise<void> {
  return writeCatalogFiles(shops, catalog.articles(), fileOf);
}

async function openStore(database: Database<ContentTables>): Promise<SearchBackend> {
  const storage = contentStorageFor(database);
  await migrateToLatest(database, { migrations: storage.migrations, tableName: CONTENT_MIGRATION_TABLE });
  return storage.backend;
}

/** Imports every shop's file of `format`; records rate and peak RSS in each half of the import. */
async function benchImport(engine: string, backend: SearchBackend, format: CatalogFormat): Promise<void> {
  const rss = new RssByHalf(ARTICLES);
  const start = process.hrtime.bigint();
  let imported = 0;
  let failed = 0;
  for (const shop of shops) {
    const result = await importCatalog(
      backend,
      createReadStream(fileOf(shop, format), { highWaterMark: CATALOG_READ_BYTES }),
      {
        format,
        shop,
        onProgress: (records) => rss.progress(imported + records),
        progressEvery: 5000,
      },
    );
    imported += result.imported;
    failed += result.failed.length + result.failedNotListed;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  rss.stop();
  if (failed > 0) console.log(`!!! ${engine} ${format}: ${failed} records rejected`);
  importRows.push([
    engine,
    format === 'jsonl' ? 'JSON Lines' : 'BMEcat 2005',
    String(imported),
    seconds,
    String(Math.round(imported / seconds)),
    rss.before / MB,
    rss.peaks[0] / MB,
    rss.peaks[1] / MB,
    '>= 20,000/s, flat memory',
  ]);
  console.log(`${engine}: imported ${imported} from ${format} in ${seconds.toFixed(1)} s`);
}

/** The two words found in the most articles (document frequency over a sample), as `q` tokenizes. */
function twoMostFrequentWords(): string {
  const counts = new Map<string, number>();
  let n = 0;
  for (const a of catalog.articles()) {
    if (++n > 20_000) break;
    const text = [
      ...a.descriptions.map((d) => d.value),
      ...a.keywords.flatMap((k) => k.values),
      a.manufacturerName ?? '',
      a.id,
      a.supplierArticleId,
      a.manufacturerArticleId ?? '',
    ];
    const words = new Set(
      text
        .join(' ')
        .normalize('NFD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? [],
    );
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((x, y) => y[1] - x[1])
    .slice(0, 2)
    .map(([w]) => w)
    .join(' ');
}

/** The HTTP stack (`app.inject`) over `backend`, with a client's token and headers. */
async function searchApp(backend: SearchBackend) {
  const config = loadContentApiConfig(
    {},
    { demo: false, logLevel: 'silent', oauthClientId: 'bench', oauthClientSecret: 'bench-secret-1' },
  );
  const auth = await createContentAuth(config);
  const app = await buildContentApiApp({ config, backend, auth });
  await app.ready();
  const issued = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: { grant_type: 'client_credentials', client_id: 'bench', client_secret: 'bench-secret-1' },
  });
  const headers = {
    authorization: `Bearer ${String(issued.json<{ access_token: string }>().access_token)}`,
    accept: CONTENT_MEDIA_TYPE,
    [REQUISITIONER_HEADER]: 'bench-user',
  };
  return { app, headers };
}

const TEXTS = [
  'pipette',
  'bosch blau',
  'copy paper',
  'ordner schwarz',
  'gants',
  'akkuschrauber makita',
  'labels A4',
  'tesa klebeband',
];
const q = (i: number) => encodeURIComponent(TEXTS[i % TEXTS.length]!);

/** Queries of one and of two words with a typo or a started last word (decision 0040). */
const ONE_WORD_TYPED = ['pipete', 'gnats', 'klebebnad', 'ordn', 'akkuschruaber', 'lab'];
const TWO_WORDS_TYPED = ['bosch bla', 'copy papr', 'ordner schwa', 'akkuschrauber makit', 'tessa klebeband'];
const matchingUrl = (texts: readonly string[], matching: string) => (i: number) =>
  `/api/articles?q=${encodeURIComponent(texts[i % texts.length]!)}&${FOUR_FACETS}&matching=${matching}`;

/**
 * `GET /api/suggest` as a buyer types (issue 27): every prefix from 2 letters of these words and
 * the typos, each shop in turn, so most requests are the first of their shop and text.
 */
const SUGGEST_TEXTS = [
  ...[...ONE_WORD, 'schrauber', 'papier', 'handschuhe', 'bohrer'].flatMap((w) =>
    Array.from({ length: w.length - 1 }, (_, n) => w.slice(0, n + 2)),
  ),
  ...ONE_WORD_TYPED,
  ...TWO_WORDS_TYPED,
];
/** Suggestions for each shop of `shopIds` in turn; none: for every shop. */
const suggestUrl = (shopIds: readonly string[]) => (i: number) =>
  `/api/suggest?q=${encodeURIComponent(SUGGEST_TEXTS[i % SUGGEST_TEXTS.length]!)}` +
  (shopIds.length === 0
    ? ''
    : `&businessShopId=${encodeURIComponent(shopIds[Math.floor(i / SUGGEST_TEXTS.length) % shopIds.length]!)}`);

/** Heap in use, MB, after a collection when the process runs with `--expose-gc`. */
function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / MB;
}

/** Searches through the HTTP stack (`app.inject`). */
async function benchSearch(
  engine: string,
  backend: SearchBackend,
  sample: readonly Article[],
  firstAfter = 'the import',
): Promise<void> {
  const { app, headers } = await searchApp(backend);
  const frequent = twoMostFrequentWords();
  const shopIds = shops.map((s) => s.id);
  // The GTINs of the sampled articles as a buyer types them, from 3 digits on: the last word
  // also matches the words with digits it begins, and every generated GTIN begins with 400.
  const gtinsTyped = sample
    .flatMap((a) => a.internationalArticleIds.filter((id) => id.type === 'gtin').map((id) => id.value))
    .flatMap((gtin) => Array.from({ length: Math.max(0, gtin.length - 2) }, (_, n) => gtin.slice(0, n + 3)));
  const cases: [string, (i: number) => string, number, string][] = [
    ['full text', (i) => `/api/articles?q=${q(i)}`, SEARCH_RUNS, 'p50 < 20, p99 < 100, max < 200'],
    [
      'full text + fq + facets',
      (i) => `/api/articles?q=${q(i)}&fq=${encodeURIComponent(BOSCH_OR_TESA_UNDER_150)}&currency=EUR`,
      SEARCH_RUNS,
      'p50 < 20, p99 < 100, max < 200',
    ],
    [
      'no q, all facets',
      (i) => `/api/articles?limit=20&offset=${(i % 10) * 20}`,
      SEARCH_RUNS,
      'p50 < 20, p99 < 100, max < 200',
    ],
    ['offset 8000', (i) => `/api/articles?q=${q(i)}&offset=8000`, SEARCH_RUNS, 'p50 < 20, p99 < 100, max < 200'],
    [
      `two most frequent words "${frequent}"`,
      () => `/api/articles?q=${encodeURIComponent(frequent)}`,
      Math.min(SEARCH_RUNS, 50),
      'max < 200 (raw FTS5: 355 + 383 ms at 1 M)',
    ],
    ['detail', (i) => `/api/articles/${encodeURIComponent(sample[i % sample.length]!.id)}`, DETAIL_RUNS, 'p50 < 2'],
    ['1 word, 4 facets, matching=exact', matchingUrl(ONE_WORD, 'exact'), SEARCH_RUNS, 'issue 27: p99 < 30'],
    ['1 word, 4 facets, default', matchingUrl(ONE_WORD, 'default'), SEARCH_RUNS, 'p99 <= 1.5x exact, < 30'],
    ['1 word typo/prefix, default', matchingUrl(ONE_WORD_TYPED, 'default'), SEARCH_RUNS, 'p99 <= 1.5x exact, < 30'],
    ['2 words, 4 facets, matching=exact', matchingUrl(TWO_WORDS, 'exact'), SEARCH_RUNS, 'issue 27: p99 < 30'],
    ['2 words, 4 facets, default', matchingUrl(TWO_WORDS, 'default'), SEARCH_RUNS, 'p99 <= 1.5x exact, < 30'],
    ['2 words typo/prefix, default', matchingUrl(TWO_WORDS_TYPED, 'default'), SEARCH_RUNS, 'p99 <= 1.5x exact, < 30'],
    [
      'GTIN typed digit by digit, default',
      (i) => `/api/articles?q=${gtinsTyped[i % gtinsTyped.length]!}&${FOUR_FACETS}`,
      SEARCH_RUNS,
      'p99 < 100',
    ],
    [
      'suggest as typed, shops in turn',
      suggestUrl(shopIds),
      SUGGEST_TEXTS.length * shopIds.length,
      'issue 27: p99 < 10',
    ],
    ['suggest as typed, every shop', suggestUrl([]), SUGGEST_TEXTS.length, 'issue 27: p99 < 10'],
  ];
  try {
    const firstStart = process.hrtime.bigint();
    const first = await app.inject({ method: 'GET', url: `/api/articles?q=${q(0)}&matching=exact`, headers });
    if (first.statusCode !== 200) throw new Error(`first search answered ${first.statusCode}`);
    searchRows.push([
      engine,
      `first search after ${firstAfter}`,
      Number(process.hrtime.bigint() - firstStart) / 1e6,
      '-',
      '-',
      'once per content version',
    ]);
    // The vocabulary default matching reads once per catalog version, and the heap it takes.
    const exactStart = process.hrtime.bigint();
    await answered(app.inject({ method: 'GET', url: matchingUrl(ONE_WORD, 'exact')(0), headers }));
    const exactMs = Number(process.hrtime.bigint() - exactStart) / 1e6;
    const heapBefore = heapMb();
    const vocabularyStart = process.hrtime.bigint();
    await answered(app.inject({ method: 'GET', url: matchingUrl(ONE_WORD, 'default')(0), headers }));
    searchRows.push([
      engine,
      'first default-matching search (reads the vocabulary)',
      Number(process.hrtime.bigint() - vocabularyStart) / 1e6,
      '-',
      '-',
      `once per version; an exact search then: ${exactMs.toFixed(1)} ms`,
    ]);
    const heapAfter = heapMb();
    searchRows.push([
      engine,
      'heap MB: loaded catalog -> with vocabulary',
      heapBefore,
      heapAfter,
      '-',
      `x${(heapAfter / heapBefore).toFixed(2)} (aim <= 1.3; run with NODE_OPTIONS=--expose-gc)`,
    ]);
    // Each shop's first suggestion reads its vocabulary (PostgreSQL) or the catalog's (SQLite, read above).
    let firstSuggest = 0;
    for (const shop of shopIds) {
      const start = process.hrtime.bigint();
      await answered(
        app.inject({ method: 'GET', url: `/api/suggest?q=zz&businessShopId=${encodeURIComponent(shop)}`, headers }),
      );
      firstSuggest = Math.max(firstSuggest, Number(process.hrtime.bigint() - start) / 1e6);
    }
    searchRows.push([engine, `first suggestion of a shop, slowest of ${shopIds.length}`, firstSuggest, '-', '-', '-']);
    for (const [name, url, runs, aim] of cases) {
      if (SEARCH_CASES && !SEARCH_CASES.test(name)) continue;
      const samples: number[] = [];
      for (let i = 0; i < WARMUP + runs; i++) {
        const start = process.hrtime.bigint();
        const reply = await app.inject({ method: 'GET', url: url(i), headers });
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        if (reply.statusCode !== 200)
          throw new Error(`${name}: ${url(i)} answered ${reply.statusCode}: ${reply.body.slice(0, 300)}`);
        if (i >= WARMUP) samples.push(ms);
      }
      samples.sort((a, b) => a - b);
      searchRows.push([
        engine,
        name,
        percentile(samples, 50),
        percentile(samples, 99),
        samples[samples.length - 1]!,
        aim,
      ]);
    }
  } finally {
    await app.close();
  }
}

/** The deltas on the store `target` names (holding the whole catalog), searched through the HTTP stack. */
async function benchDeltasOn(
  engine: string,
  backend: SearchBackend,
  files: DeltaFiles,
  target: OpenDatabaseOptions,
): Promise<void> {
  const { app, headers } = await searchApp(backend);
  const searches: BenchSearches = {
    url: (i) => `/api/articles?q=${q(i)}`,
    digitText: TEXTS.indexOf('labels A4'),
    async get(url) {
      const start = process.hrtime.bigint();
      const reply = await app.inject({ method: 'GET', url, headers });
      if (reply.statusCode !== 200) throw new Error(`${url} answered ${reply.statusCode}`);
      return Number(process.hrtime.bigint() - start) / 1e6;
    },
  };
  try {
    deltaRows.push(...(await benchDeltas(engine, backend, files, target, searches)));
  } finally {
    await app.close();
  }
}

/** The reply of a request whose time is measured on its own: anything but 200 ends the bench, as in the cases. */
async function answered(reply: Promise<{ statusCode: number; body: string }>): Promise<void> {
  const { statusCode, body } = await reply;
  if (statusCode !== 200) throw new Error(`a request answered ${statusCode}: ${body.slice(0, 300)}`);
}

/** The first 500 articles of the catalog, for the detail requests. */
function detailSample(): Article[] {
  const sample: Article[] = [];
  for (const a of catalog.articles()) {
    if (sample.length === 500) break;
    sample.push(a);
  }
  return sample;
}

async function benchEngine(
  engine: string,
  target: (format: CatalogFormat) => OpenDatabaseOptions,
  files: DeltaFiles,
  /** Removes a store once measured: at 10 M articles two stores at once may not fit on the disk. */
  discard: (format: CatalogFormat) => Promise<void>,
): Promise<void> {
  const open = (format: CatalogFormat) => openDatabase<ContentTables>(target(format));
  const sample = detailSample();
  if (IMPORT_JSONL) {
    const jsonl = open('jsonl');
    const jsonlStore = await openStore(jsonl);
    try {
      await benchImport(engine, jsonlStore, 'jsonl');
    } finally {
      await jsonlStore.close();
      await jsonl.close();
      await discard('jsonl');
    }
  }
  const bmecat = open('bmecat');
  const backend = await openStore(bmecat);
  // As the service does: load each change ahead of searches (PostgreSQL; another process's deltas too).
  await backend.keepLoaded?.({ warn: (object, message) => console.log(`!!! ${engine}: ${message}`, object) });
  try {
    await benchImport(engine, backend, 'bmecat');
    if (!DELTAS_ONLY) await benchSearch(engine, backend, sample);
    await benchDeltasOn(engine, backend, files, target('bmecat'));
  } finally {
    await backend.close();
    await bmecat.close();
  }
}

/** The search cases on the existing store `file` (BENCH_SQLITE_STORE), holding the catalog of BENCH_ARTICLES. */
async function benchStore(file: string): Promise<void> {
  const database = openDatabase<ContentTables>({ sqliteFile: file });
  const backend = await openStore(database);
  try {
    // From the segments' headers: `countArticles` would load the catalog before the first search.
    const { rows } = await sql<{
      articles: number;
    }>`select sum(article_count) as articles from content_segments`.execute(database.db);
    const articles = Number(rows[0]?.articles ?? 0);
    if (articles !== ARTICLES)
      throw new Error(`${file} holds ${articles} articles, not BENCH_ARTICLES=${ARTICLES} (the generated catalog)`);
    // As the server does before it listens (`keepLoaded`): the first search then finds the catalog loaded.
    const loadStart = process.hrtime.bigint();
    await backend.keepLoaded?.({ warn: (object, message) => console.log(`!!! sqlite: ${message}`, object) });
    searchRows.push([
      'sqlite',
      'catalog loaded at start (keepLoaded, before listening)',
      Number(process.hrtime.bigint() - loadStart) / 1e6,
      '-',
      '-',
      'once per start',
    ]);
    await benchSearch('sqlite', backend, detailSample(), 'opening the store and loading it');
  } finally {
    await backend.close();
    await database.close();
  }
}

async function main(): Promise<void> {
  console.log(
    `content API: ${ARTICLES} generated articles over ${shops.length} shops (BENCH_ARTICLES to change); ` +
      `load average ${loadAverage()}`,
  );
  if (SQLITE_STORE) {
    console.log(`searching the existing store ${SQLITE_STORE} (BENCH_SQLITE_STORE): no import, no deltas`);
    await benchStore(SQLITE_STORE);
    console.log();
    printTable(['engine', 'search (count + all facets)', 'p50 ms', 'p99 ms', 'max ms', 'aim (SQLite, ms)'], searchRows);
    console.log(`\nload average at the end: ${loadAverage()} (${os.cpus().length} cores)`);
    return;
  }
  let start = process.hrtime.bigint();
  await writeFiles();
  const files = writeDeltaFiles(catalog, dir, {
    articles: ARTICLES,
    priceUpdates: PRICE_UPDATES,
    productUpdates: PRODUCT_UPDATES,
  });
  console.log(`catalog files written in ${(Number(process.hrtime.bigint() - start) / 1e9).toFixed(1)} s`);
  start = process.hrtime.bigint();
  if (ENGINES.includes('sqlite'))
    await benchEngine(
      'sqlite',
      (format) => ({
        sqliteFile: path.join(dir, `content-${format}.sqlite`),
        ...(process.env.BENCH_PAGE_SIZE === 'default' ? {} : { sqlitePageSize: CONTENT_SQLITE_PAGE_SIZE }),
      }),
      files,
      (format) => {
        for (const suffix of ['', '-wal', '-shm'])
          rmSync(path.join(dir, `content-${format}.sqlite${suffix}`), { force: true });
        return Promise.resolve();
      },
    );

  const pgUrl = process.env.TRIAD_BENCH_DATABASE_URL || process.env.TRIAD_TEST_DATABASE_URL;
  if (!ENGINES.includes('postgres')) {
    console.log('PostgreSQL skipped (BENCH_ENGINES)');
  } else if (pgUrl) {
    const schemas: string[] = [];
    try {
      await benchEngine(
        'postgres',
        (format) => {
          const schema = `content_bench_${process.pid}_${format}`;
          if (!schemas.includes(schema)) schemas.push(schema);
          return { url: pgUrl, schema };
        },
        files,
        async (format) => {
          const admin = openDatabase({ url: pgUrl });
          try {
            await sql`drop schema if exists ${sql.id(`content_bench_${process.pid}_${format}`)} cascade`.execute(
              admin.db,
            );
          } finally {
            await admin.close();
          }
        },
      );
    } finally {
      const admin = openDatabase({ url: pgUrl });
      for (const schema of schemas) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
      await admin.close();
    }
  } else {
    console.log('PostgreSQL skipped: set TRIAD_BENCH_DATABASE_URL or TRIAD_TEST_DATABASE_URL to a postgres:// URL');
  }

  console.log();
  printTable(
    [
      'engine',
      'import from',
      'articles',
      'seconds',
      'articles/s',
      'RSS before MB',
      'peak RSS 1st half',
      'peak RSS 2nd half',
      'aim (SQLite)',
    ],
    importRows,
  );
  console.log();
  printTable(['engine', 'search (count + all facets)', 'p50 ms', 'p99 ms', 'max ms', 'aim (SQLite, ms)'], searchRows);
  console.log();
  printTable(['engine', 'BMEcat delta', 'measured', 'aim (SQLite)'], deltaRows);
  console.log(`\nload average at the end: ${loadAverage()} (${os.cpus().length} cores)`);
}

try {
  await main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
