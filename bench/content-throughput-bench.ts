/**
 * Search throughput of the article content API over HTTP (issue 30): the real server, many clients.
 *
 *   npm run bench -- content-throughput                          (1,000,000 articles, 20 s per row)
 *   BENCH_ARTICLES=200000 BENCH_SECONDS=10 npm run bench -- content-throughput
 *   BENCH_ENGINES=sqlite BENCH_CONNECTIONS=16 npm run bench -- content-throughput
 *   BENCH_CPU_PROF=/tmp/prof npm run bench -- content-throughput (the server runs with --cpu-prof)
 *   BENCH_THREADS=0,2 BENCH_CPUS=0 npm run bench -- content-throughput
 *   BENCH_ROWS='500 different' npm run bench -- content-throughput  (only rows whose name holds it)
 *   BENCH_BUILT=1 npm run bench -- content-throughput  (`npm run build` first, then the built server)
 *   BENCH_SERVER_FLAGS=--trace-gc BENCH_SERVER_LOG=/tmp/gc npm run bench -- content-throughput
 *     (more flags for the server's node; its standard output written to /tmp/gc.<engine> at the end)
 *     (a server per TRIAD_CONTENT_SEARCH_THREADS value, each held to the listed cores by `taskset`)
 *
 * Starts `triad serve content-api` from the sources (with BENCH_BUILT=1: built first, then run as
 * `npm start` runs it, without tsx) as a child process on a loopback port, with
 * the generated demo catalog of BENCH_ARTICLES (seed 1, the catalog of `npm run bench --
 * content-api`). The catalog is kept between runs: SQLite in `<tmp>/triad-throughput-<articles>/`,
 * PostgreSQL (when `TRIAD_BENCH_DATABASE_URL` or `TRIAD_TEST_DATABASE_URL` is set) in the database
 * `triad_throughput_<articles>`; the first run seeds it (minutes at 1 M), later runs reuse it.
 * BENCH_FRESH=1 seeds again.
 *
 * For each engine and each of BENCH_CONNECTIONS (16,64) autocannon drives, after a 2 s warm-up,
 * BENCH_SECONDS (20) of: one word (six words in turn, and 500 different words of the catalog's
 * vocabulary, `catalogWords`), two words (all with four facets), filter only (`fq` with Or
 * and And, four facets, no `q`), and article detail. It prints requests/s, latency p50/p90/p99/max,
 * time-outs and errors (non-2xx included), and the server's CPU time per request, read from
 * `/proc/<pid>/stat` before and after (10 ms ticks): unlike requests/s it hardly moves when other
 * processes compete for the cores. The load generator runs in this process on the same machine.
 * Also prints the part of that CPU spent on the server's main thread (the rest: search workers,
 * garbage collection and I/O helper threads) and the server's resident memory (VmRSS, and its
 * peak VmHWM) after each row. Prints numbers and the load average; asserts nothing about time.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { openDatabase } from '@triad/db';
import { startSourceProcess, waitForProcess, type SourceProcess } from '@triad/service-kit/testing';
import { cpuSeconds, loadAverage, mainThreadCpuSeconds, printTable } from './bench-utils.js';
import { BOSCH_OR_TESA_UNDER_150, catalogWords, FOUR_FACETS, ONE_WORD, TWO_WORDS } from './content-queries.js';

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
/** Seconds driven before each measured row (BENCH_WARMUP, default 2). */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP ?? 2);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '16,64').split(',').map(Number);
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',');
const FRESH = process.env.BENCH_FRESH === '1';
const CPU_PROF = process.env.BENCH_CPU_PROF;
/** Values of TRIAD_CONTENT_SEARCH_THREADS, one server each (decision 0051); unset: the server's default. */
const THREADS = process.env.BENCH_THREADS?.split(',');
/** Cores the server is held to (`taskset -a -p -c`), e.g. `0` or `0,1`; unset: any. */
const CPUS = process.env.BENCH_CPUS;
/** Only the rows whose name holds this text (e.g. `500 different`); unset: all. */
const ROWS = process.env.BENCH_ROWS;
/** Run the built server (`apps/cli/bin/triad.js`, after `npm run build`) instead of the sources under tsx. */
const BUILT = process.env.BENCH_BUILT === '1';
const CLIENT_ID = 'bench-throughput';
const CLIENT_SECRET = randomBytes(24).toString('base64url');
const ACCEPT = 'application/vnd.vendor.content.v1+json';
const REQUISITIONER = 'x-svc-requisitioner-id';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The part of autocannon this bench calls. */
interface AutocannonResult {
  readonly requests: { readonly total: number; readonly average: number };
  readonly latency: { readonly p50: number; readonly p90: number; readonly p99: number; readonly max: number };
  readonly duration: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
}
interface AutocannonOptions {
  readonly url: string;
  readonly connections: number;
  readonly duration: number;
  readonly headers: Record<string, string>;
  readonly requests: readonly { setupRequest: (request: { path: string }) => { path: string } }[];
}
const autocannon = createRequire(import.meta.url)('autocannon') as (
  options: AutocannonOptions,
) => Promise<AutocannonResult>;

const FILTER_ONLY = `/api/articles?fq=${encodeURIComponent(BOSCH_OR_TESA_UNDER_150)}&currency=EUR&${FOUR_FACETS}`;
/** Words that do not repeat within 500 requests (a cache of results would hardly help). */
const MANY_WORDS = catalogWords(500);
const search = (q: string) => `/api/articles?q=${encodeURIComponent(q)}&${FOUR_FACETS}`;

interface Server {
  readonly process: SourceProcess;
  readonly url: string;
  readonly headers: Record<string, string>;
}

/** Starts `triad serve content-api` on `env`'s store, seeding the demo catalog when it is empty. */
async function startServer(engine: string, env: Record<string, string | undefined>): Promise<Server> {
  const seedStart = performance.now();
  const profile = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.join(CPU_PROF, engine)}`] : [];
  profile.push(...(process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? []));
  const started = startSourceProcess({
    cwd: root,
    built: BUILT,
    args: [...profile, BUILT ? 'apps/cli/bin/triad.js' : 'apps/cli/src/bin.ts', 'serve', 'content-api', '--port', '0'],
    env: {
      TRIAD_DEMO: '1',
      TRIAD_CONTENT_DEMO_ARTICLES: String(ARTICLES),
      TRIAD_OAUTH_CLIENT_ID: CLIENT_ID,
      TRIAD_OAUTH_CLIENT_SECRET: CLIENT_SECRET,
      TRIAD_LOG_LEVEL: 'warn',
      TRIAD_LOG_FORMAT: 'json',
      ...env,
    },
  });
  // Seeding 1 M articles takes minutes; 10 M most of an hour.
  const ready = () => started.stdout().includes('Press Ctrl+C to stop.');
  await waitForProcess(started, ready, 90 * 60_000, `content-api (${engine}) did not start`);
  const url = /^Content API\s+(http:\/\/\S+)$/m.exec(started.stdout())?.[1];
  if (!url) throw new Error(`content-api (${engine}) printed no URL:\n${started.stdout()}`);
  console.log(`${engine}: server ready in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
  const issued = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET }),
  });
  const token = ((await issued.json()) as { access_token: string }).access_token;
  return {
    process: started,
    url,
    headers: { authorization: `Bearer ${token}`, accept: ACCEPT, [REQUISITIONER]: 'bench' },
  };
}

/** GETs `url` and returns its JSON body, or throws with the status and the start of the body. */
async function getJson(server: Server, url: string): Promise<unknown> {
  const reply = await fetch(`${server.url}${url}`, { headers: server.headers });
  const body = await reply.text();
  if (reply.status !== 200) throw new Error(`${url} answered ${reply.status}: ${body.slice(0, 300)}`);
  return JSON.parse(body);
}

/** Ids of articles the one-word searches find, for the detail requests. */
async function articleIds(server: Server): Promise<string[]> {
  const ids: string[] = [];
  for (const q of ONE_WORD) {
    const body = (await getJson(server, `/api/articles?q=${q}&limit=50`)) as {
      members?: { article?: { id?: unknown } }[];
    };
    for (const m of body.members ?? []) if (typeof m.article?.id === 'string') ids.push(m.article.id);
  }
  if (ids.length === 0) throw new Error('the searches found no article: is the catalog empty?');
  return ids;
}

/** What the server logged at warn level and above during a row: each distinct message once, with a count. */
function serverErrors(log: string): string {
  const counts = new Map<string, number>();
  for (const line of log.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
      if ((entry.level ?? 0) < 40) continue;
      const text = `${entry.msg ?? ''}${entry.err?.message ? `: ${entry.err.message}` : ''}`.slice(0, 300);
      counts.set(text, (counts.get(text) ?? 0) + 1);
    } catch {
      // not a log line
    }
  }
  return [...counts].map(([text, n]) => `  server logged ${n}x: ${text}`).join('\n');
}

type Row = [
  string,
  string,
  string,
  string,
  number,
  number,
  number,
  number,
  number,
  string,
  number,
  number,
  number,
  string,
];

/** Resident memory of `pid` and its peak, MB (`/proc/<pid>/status`). */
function residentMb(pid: number): string {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return `${(kb('VmRSS') / 1024).toFixed(0)} / ${(kb('VmHWM') / 1024).toFixed(0)}`;
}

/** Drives `paths` in turn with `connections` clients; returns a table row. */
async function drive(
  engine: string,
  threads: string,
  server: Server,
  name: string,
  paths: readonly string[],
  connections: number,
): Promise<Row> {
  let next = 0;
  const options = (duration: number): AutocannonOptions => ({
    url: server.url,
    connections,
    duration,
    headers: server.headers,
    requests: [
      {
        setupRequest: (request) => {
          request.path = paths[next++ % paths.length]!;
          return request;
        },
      },
    ],
  });
  await autocannon(options(WARMUP_SECONDS));
  const pid = server.process.child.pid!;
  const cpuBefore = cpuSeconds(pid);
  const mainBefore = mainThreadCpuSeconds(pid);
  const result = await autocannon(options(SECONDS));
  const cpu = cpuSeconds(pid) - cpuBefore;
  const mainCpu = mainThreadCpuSeconds(pid) - mainBefore;
  const total = result.requests.total;
  const cpuMs = (cpu * 1000) / Math.max(1, total);
  return [
    engine,
    threads,
    name,
    String(connections),
    total / result.duration,
    result.latency.p50,
    result.latency.p90,
    result.latency.p99,
    result.latency.max,
    `${result.timeouts} / ${result.errors - result.timeouts + result.non2xx}`,
    cpuMs,
    cpuMs > 0 ? 1000 / cpuMs : 0,
    (mainCpu * 1000) / Math.max(1, total),
    residentMb(pid),
  ];
}

async function benchServer(engine: string, env: Record<string, string | undefined>, rows: Row[]): Promise<void> {
  for (const threads of THREADS ?? [undefined]) {
    await benchThreads(engine, threads === undefined ? env : { ...env, TRIAD_CONTENT_SEARCH_THREADS: threads }, rows);
  }
}

async function benchThreads(engine: string, env: Record<string, string | undefined>, rows: Row[]): Promise<void> {
  const threads = env.TRIAD_CONTENT_SEARCH_THREADS ?? 'default';
  const server = await startServer(engine, env);
  try {
    if (CPUS !== undefined) {
      execFileSync('taskset', ['-a', '-p', '-c', CPUS, String(server.process.child.pid)], { stdio: 'ignore' });
      console.log(`${engine}: server held to cores ${CPUS}`);
    }
    const firstStart = performance.now();
    await getJson(server, search(ONE_WORD[0]!));
    console.log(`${engine}: first search ${(performance.now() - firstStart).toFixed(0)} ms`);
    const ids = await articleIds(server);
    const filtered = (await getJson(server, FILTER_ONLY)) as {
      total?: unknown;
    };
    console.log(`${engine}: filter only matches ${String(filtered.total)}`);
    const cases: [string, string[]][] = [
      ['one word, 4 facets', ONE_WORD.map(search)],
      ['one word, 500 different words', MANY_WORDS.map(search)],
      ['two words, 4 facets', TWO_WORDS.map(search)],
      ['filter only (fq Or/And), 4 facets', [FILTER_ONLY]],
      ['article detail', ids.map((id) => `/api/articles/${encodeURIComponent(id)}`)],
    ];
    for (const connections of CONNECTIONS) {
      for (const [name, paths] of cases) {
        if (ROWS !== undefined && !name.includes(ROWS)) continue;
        const logged = server.process.stdout().length + server.process.stderr().length;
        const row = await drive(engine, threads, server, name, paths, connections);
        console.log(row.map((c) => (typeof c === 'number' ? c.toFixed(1) : c)).join('  '));
        rows.push(row);
        const errors = serverErrors((server.process.stdout() + server.process.stderr()).slice(logged));
        if (errors) console.log(errors);
      }
    }
  } finally {
    // SIGTERM, so that a --cpu-prof server writes its profile on the way out.
    await server.process.stop(60_000);
    if (process.env.BENCH_SERVER_LOG)
      writeFileSync(`${process.env.BENCH_SERVER_LOG}.${engine}`, server.process.stdout());
  }
}

/** The PostgreSQL database holding the catalog of this size; created (or recreated) when asked. */
async function postgresStore(serverUrl: string): Promise<string> {
  const name = `triad_throughput_${ARTICLES}`;
  const admin = openDatabase({ url: serverUrl, maxConnections: 1 });
  try {
    const found = await sql<{ n: number }>`select 1 as n from pg_database where datname = ${name}`.execute(admin.db);
    if (FRESH && found.rows.length > 0) await sql`drop database ${sql.id(name)} with (force)`.execute(admin.db);
    if (FRESH || found.rows.length === 0) await sql`create database ${sql.id(name)}`.execute(admin.db);
  } finally {
    await admin.close();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function main(): Promise<void> {
  console.log(
    `content throughput: ${ARTICLES} generated articles; ${SECONDS} s per row after ${WARMUP_SECONDS} s warm-up; ` +
      `connections ${CONNECTIONS.join(', ')}; ${os.cpus().length} cores, load average ${loadAverage()}`,
  );
  if (BUILT) {
    console.log('building (BENCH_BUILT=1): npm run build');
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  console.log(`server: ${BUILT ? 'built (apps/cli/bin/triad.js)' : 'from the sources under tsx'}`);
  const rows: Row[] = [];
  if (ENGINES.includes('sqlite')) {
    const dataDir = path.join(os.tmpdir(), `triad-throughput-${ARTICLES}`);
    if (FRESH) rmSync(dataDir, { recursive: true, force: true });
    if (existsSync(path.join(dataDir, 'content.sqlite'))) console.log(`sqlite: reusing the catalog in ${dataDir}`);
    mkdirSync(dataDir, { recursive: true });
    await benchServer('sqlite', { TRIAD_DATA_DIR: dataDir, DATABASE_URL: undefined }, rows);
  }
  const pgUrl = process.env.TRIAD_BENCH_DATABASE_URL || process.env.TRIAD_TEST_DATABASE_URL;
  if (!ENGINES.includes('postgres')) console.log('PostgreSQL skipped (BENCH_ENGINES)');
  else if (!pgUrl) console.log('PostgreSQL skipped: set TRIAD_BENCH_DATABASE_URL or TRIAD_TEST_DATABASE_URL');
  else await benchServer('postgres', { DATABASE_URL: await postgresStore(pgUrl) }, rows);

  console.log();
  printTable(
    [
      'engine',
      'threads',
      'request',
      'connections',
      'req/s',
      'p50 ms',
      'p90 ms',
      'p99 ms',
      'max ms',
      'timeouts / errors',
      'server CPU ms/req',
      'req/s per core',
      'main thread CPU ms/req',
      'RSS / peak MB',
    ],
    rows,
  );
  console.log(`\nload average at the end: ${loadAverage()} (${os.cpus().length} cores)`);
}

await main();
