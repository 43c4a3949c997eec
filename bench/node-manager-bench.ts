/**
 * HTTP benchmark of the node manager (services/node-manager) on loopback.
 *
 *   node --conditions=source --import tsx bench/node-manager-bench.ts [seconds] [filter...]
 *
 * For SQLite (a temporary file) and, when `TRIAD_BENCH_DATABASE_URL` or `TRIAD_TEST_DATABASE_URL`
 * names a PostgreSQL server, for PostgreSQL (a fresh schema, dropped afterwards) it seeds 200
 * nodes and 100,000 stored alarms (every fifth one cleared), then measures with autocannon:
 *
 *   - `GET /api/alarm` (20 alarms per reply, newest first; on SQLite the same list asked again
 *     is served from the list cache until an alarm changes),
 *   - `GET /api/alarm/previous/all?eid=...`, each request another page (never a cache hit),
 *   - `GET /api/topo/node` (200 nodes),
 *   - `POST /api/alarm/acknowledge` (each request acknowledges another `new` alarm),
 *   - `GET /api/users/auth_status`: the service's floor (Basic authentication, hooks, logging),
 *
 * beside a one-route Fastify server as the baseline. Authentication is on (HTTP Basic as
 * `admin`, credential cache warmed before measuring), logging at `warn`, 50 connections, 5 s per
 * measurement after a 1 s warm-up. The server runs in this process's main thread; autocannon
 * runs in a worker thread of the same process, so each gets a core of its own on a 2-core box.
 * Prints requests per second, p50/p99 latency and the serving thread's CPU time per request (the
 * steadiest figure on a shared machine); asserts nothing about time. Filters keep only
 * the measurements whose name contains one of them (`5 "sqlite: GET /api/alarm"`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type Database } from '@triad/db';
import {
  buildNodeManagerApp,
  createNodeManagerCore,
  eventIdOf,
  loadNodeManagerConfig,
  nodeManagerMigrations,
  NODE_MANAGER_MIGRATION_TABLE,
  type AlarmRecord,
  type NodeConnector,
} from '@triad/node-manager-service';
import { createLogger } from '@triad/service-kit';
import { mainThreadCpuSeconds, printTable } from './bench-utils.js';

const NODES = 200;
const BASELINE = 'baseline: one-route Fastify';
const ALARMS = 100_000;
const CONNECTIONS = 50;
const [SECONDS_ARG, ...FILTERS] = process.argv.slice(2);
const SECONDS = Number(SECONDS_ARG ?? 5);
const WARMUP_SECONDS = 1;
const PASSWORD = 'benchpw1';
const AUTHORIZATION = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
/** Acknowledge bodies handed to the load generator; more than 50 connections can use in 6 s here. */
const ACK_POOL = 60_000;

/** What the load generator is asked to do (sent to the worker thread). */
interface LoadJob {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  /** POST bodies, one per request in turn (each used once). */
  readonly bodies?: readonly string[];
  /** Paths (with query), one per request in turn, instead of the URL's. */
  readonly paths?: readonly string[];
}

/** The part of autocannon's result this bench prints. */
interface LoadResult {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly total: number;
  readonly non2xx: number;
  readonly errors: number;
  /** CPU time of the serving (main) thread per measured request, µs; NaN where unreadable. */
  readonly cpuUs: number;
}

/**
 * The load generator, run in a worker thread. Plain JavaScript (an `eval` worker) so it loads
 * only autocannon, not this TypeScript file. `workerData` is a `LoadJob` plus the timings.
 */
const LOAD_GENERATOR = `
const { parentPort, workerData: job } = require('node:worker_threads');
const autocannon = require(job.autocannonPath);
let next = 0;
const options = { url: job.url, method: job.method, headers: job.headers, connections: job.connections };
const cycle = (field, values) => [
  {
    setupRequest: (request) => {
      request[field] = values[next++ % values.length];
      return request;
    },
  },
];
if (job.bodies) options.requests = cycle('body', job.bodies);
if (job.paths) options.requests = cycle('path', job.paths);
(async () => {
  await autocannon({ ...options, duration: job.warmupSeconds });
  parentPort.postMessage('warm');
  // Inside a worker thread autocannon returns raw histograms; aggregate them as its main thread would.
  const raw = await autocannon({ ...options, duration: job.seconds });
  const r = autocannon.aggregateResult([raw], options);
  parentPort.postMessage({
    total: raw.totalCompletedRequests,
    rps: raw.totalCompletedRequests / raw.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  });
})().catch((error) => { throw error; });
`;

/**
 * CPU time (user + system) the main thread has used, in µs, from Linux's per-thread counters
 * (10 ms ticks; a 5 s measurement makes that negligible). Unlike requests per second it hardly
 * moves when other processes compete for the cores. NaN where /proc is not there.
 */
function mainThreadCpuUs(): number {
  try {
    return mainThreadCpuSeconds() * 1e6;
  } catch {
    return Number.NaN;
  }
}

/** Runs one job in a worker thread; the serving thread's CPU is read around the measured part. */
function load(job: LoadJob): Promise<LoadResult> {
  const autocannonPath = createRequire(import.meta.url).resolve('autocannon');
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_GENERATOR, {
      eval: true,
      workerData: { ...job, autocannonPath, connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS },
    });
    let cpuAtStart = Number.NaN;
    worker.on('message', (message: 'warm' | Omit<LoadResult, 'cpuUs'>) => {
      if (message === 'warm') cpuAtStart = mainThreadCpuUs();
      else resolve({ ...message, cpuUs: (mainThreadCpuUs() - cpuAtStart) / message.total });
    });
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`load worker exited with ${code}`))));
  });
}

/** A connector that never touches the network: every node stays DOWN. */
const quietConnector: NodeConnector = {
  connect: () => Promise.resolve('DOWN'),
  disconnect: () => Promise.resolve(),
  state: () => undefined,
  discover: () => Promise.resolve([]),
  analyseReachability: (name) =>
    Promise.resolve({
      reachability: 'is not reachable',
      details: [],
      description: name,
      hints: [],
    }),
};

/** The node manager's table map, as its core declares it (the service does not export it by name). */
type NodeManagerTables =
  Parameters<typeof createNodeManagerCore>[0]['database'] extends Database<infer Tables> ? Tables : never;

type Row = readonly [string, LoadResult];
const rows: Row[] = [];

/** True when the command line's filters keep the measurement `name`. */
function wanted(name: string): boolean {
  return FILTERS.length === 0 || FILTERS.some((f) => name.includes(f));
}

/** Runs and records one measurement unless filtered out. */
async function measure(name: string, job: () => LoadJob | Promise<LoadJob>): Promise<void> {
  if (wanted(name)) rows.push([name, await load(await job())]);
}

async function main(): Promise<void> {
  console.log(
    `loopback, ${CONNECTIONS} connections, ${SECONDS} s per measurement after ${WARMUP_SECONDS} s warm-up; ` +
      'server in the main thread, autocannon in a worker thread',
  );
  if (wanted(BASELINE)) rows.push([BASELINE, await baseline()]);

  const dir = mkdtempSync(path.join(os.tmpdir(), 'nm-bench-'));
  try {
    await benchDatabase(
      'sqlite',
      openDatabase<NodeManagerTables>({ sqliteFile: path.join(dir, 'node-manager.sqlite') }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const pgUrl = process.env.TRIAD_BENCH_DATABASE_URL || process.env.TRIAD_TEST_DATABASE_URL;
  if (pgUrl) {
    const schema = `nm_bench_${process.pid}`;
    const database = openDatabase<NodeManagerTables>({ url: pgUrl, schema });
    try {
      await benchDatabase('postgres', database);
    } finally {
      const admin = openDatabase({ url: pgUrl });
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
      await admin.close();
    }
  } else {
    console.log('PostgreSQL skipped: set TRIAD_BENCH_DATABASE_URL or TRIAD_TEST_DATABASE_URL to a postgres:// URL');
  }

  console.log();
  printTable(
    ['measurement', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'requests', 'non-2xx', 'errors'],
    rows.map(([name, r]) => [name, r.rps, r.p50, r.p99, r.cpuUs, String(r.total), String(r.non2xx), String(r.errors)]),
  );
}

async function baseline(): Promise<LoadResult> {
  const app = Fastify({ logger: false });
  app.get('/', () => ({ hello: 'world' }));
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    return await load({ url, method: 'GET', headers: {} });
  } finally {
    await app.close();
  }
}

async function benchDatabase(label: string, database: Database<NodeManagerTables>): Promise<void> {
  const names = [
    `${label}: GET /api/alarm (20 of ${ALARMS / 1000}k)`,
    `${label}: GET /api/alarm/previous/all (each request another page)`,
    `${label}: GET /api/topo/node (${NODES})`,
    `${label}: POST /api/alarm/acknowledge`,
    `${label}: GET /api/users/auth_status (floor)`,
  ] as const;
  let app: FastifyInstance | undefined;
  try {
    if (!names.some(wanted)) return;
    await migrateToLatest(database, { migrations: nodeManagerMigrations, tableName: NODE_MANAGER_MIGRATION_TABLE });
    const config = loadNodeManagerConfig({}, { logLevel: 'warn', authentication: true, adminPassword: PASSWORD });
    const core = createNodeManagerCore({ config, database, connector: quietConnector });
    await core.users.ensureAdmin(PASSWORD);
    const started = performance.now();
    const ackable = await seed(database, core);
    await core.alarmStore.presentMissing(); // as the service does at start-up
    console.log(
      `${label}: seeded ${NODES} nodes and ${ALARMS} alarms in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    app = (
      await buildNodeManagerApp({ config, database, core, logger: createLogger({ level: 'warn', stream: 'stderr' }) })
    ).app;
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const headers = { authorization: AUTHORIZATION };
    // Warms the credential cache (one scrypt) and checks the replies before measuring.
    const list = await fetch(`${base}/api/alarm`, { headers });
    const alarms = ((await list.json()) as { alarms?: unknown[] }).alarms;
    const nodes = (await (await fetch(`${base}/api/topo/node`, { headers })).json()) as unknown[];
    if (alarms?.length !== 20 || nodes.length !== NODES)
      throw new Error(`${label}: unexpected replies (${alarms?.length} alarms, ${nodes.length} nodes)`);

    // The service's floor: authentication, hooks and logging around a one-word reply.
    await measure(names[4], () => ({ url: `${base}/api/users/auth_status`, method: 'GET', headers }));
    await measure(names[0], () => ({ url: `${base}/api/alarm`, method: 'GET', headers }));
    await measure(names[1], () => ({
      url: `${base}/api/alarm/previous/all`,
      method: 'GET',
      headers,
      paths: ackable.map((a) => `/api/alarm/previous/all?eid=${encodeURIComponent(a.eventId)}`),
    }));
    await measure(names[2], () => ({ url: `${base}/api/topo/node`, method: 'GET', headers }));
    await measure(names[3], () => ({
      url: `${base}/api/alarm/acknowledge`,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      bodies: ackable.map((a) => JSON.stringify({ userId: 'admin', alarmId: a.alarmId, alarmSrc: a.alarmSrc })),
    }));
  } finally {
    await app?.close();
    await database.close();
  }
}

/**
 * 200 nodes through the service's commands, one alarm per node raised through the internal API
 * (so ids and sources are the service's own), then copies of those rows with older event
 * instants in batched inserts inside one transaction. Returns `new` alarms to acknowledge.
 */
async function seed(
  database: Database,
  core: ReturnType<typeof createNodeManagerCore>,
): Promise<{ alarmId: string; alarmSrc: string; eventId: string }[]> {
  const templates: AlarmRecord[] = [];
  for (let i = 0; i < NODES; i++) {
    const node = await core.topology.addNode(`bench_${i}@host${i % 20}.example`, 'cookie');
    templates.push(
      (
        await core.alarms.raise({
          alarmId: `seed_${i}`,
          nodeId: node.id,
          description: 'seeded by the bench',
          tags: ['dev', 'op'],
        })
      ).alarm,
    );
  }
  const db = database.db;
  const templateRows = await db.selectFrom('nm_alarms').selectAll().orderBy('event_us').execute();
  const oldestUs = Math.min(...templates.map((a) => a.eventUs));
  const copies = ALARMS - NODES;
  const firstUs = oldestUs - (copies + 1) * 1000; // 1 ms apart, all older than the raised ones
  const ackable: { alarmId: string; alarmSrc: string; eventId: string }[] = [];
  const batch = Math.floor(database.capabilities.maxBindParameters / Object.keys(templateRows[0] ?? {}).length / 2);
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < copies; start += batch) {
      const alarmRows = [];
      const tagRows = [];
      for (let i = start; i < Math.min(copies, start + batch); i++) {
        const template = templateRows[i % templateRows.length] as Record<string, unknown>;
        const eventUs = firstUs + i * 1000;
        const active = i % 5 !== 0;
        const alarmId = `bench_alarm_${i}`;
        // list_json NULL: built by presentMissing, as the service does for older rows at start-up.
        alarmRows.push({
          ...template,
          ...('list_json' in template ? { list_json: null } : {}),
          event_us: eventUs,
          alarm_id: alarmId,
          active: active ? 1 : 0,
          raised_at: Math.floor(eventUs / 1000),
          cleared_at: active ? null : Math.floor(eventUs / 1000) + 60_000,
        });
        tagRows.push({ event_us: eventUs, tag: 'dev' }, { event_us: eventUs, tag: 'op' });
        if (active) ackable.push({ alarmId, alarmSrc: String(template.raw_src), eventId: eventIdOf(eventUs) });
      }
      await trx.insertInto('nm_alarms').values(alarmRows).execute();
      await trx.insertInto('nm_alarm_tags').values(tagRows).execute();
    }
  });
  // Newest first, like a user working down the list.
  return ackable.reverse().slice(0, ACK_POOL);
}

await main();
