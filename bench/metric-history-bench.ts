/**
 * Issue 13's measurements of the metric history: what sampling real nodes costs this process, and
 * how fast one node's 24 hours answer. About 90 s on a 2-core machine; prints numbers, asserts nothing.
 *
 *   npm run bench -- metric-history
 *
 * 1. Sampling cost. Starts 20 `erl -sname` nodes (then 20 more), a node manager
 *    (`startNodeManagerServer`, SQLite in a temporary directory, `metricsPollMs` 250 ms, the
 *    alarm polls at 1 h) and adds them. With every plugin off it measures this process' CPU time
 *    (`process.cpuUsage`, user + system) over 4 s before and 4 s after the sampling: the idle cost
 *    of the connections and of the machine's noise. Then with only `wombat_plugin_builtin_metrics`
 *    on (the kernel sample: one RPC, its parsing, the `/metrics` store, the history write) and then
 *    with `wombat_plugin_node_info` too (node facts run at the same interval), 8 s each. Samples
 *    are counted in the history itself. CPU per sample: net = (CPU of the window - idle CPU) /
 *    samples, gross = CPU of the window / samples (an upper bound); the projection to the default
 *    15 s interval is nodes x CPU per sample / 15 s, as % of one core.
 * 2. History query. Fills a real database (a SQLite file; PostgreSQL too when
 *    `TRIAD_BENCH_DATABASE_URL` or `TRIAD_TEST_DATABASE_URL` is set, in a fresh schema dropped
 *    afterwards) with 24 h of raw samples every 15 s of all 31 kernel series of 5 nodes (series
 *    created by `MetricHistory.record`, rows in batched inserts) and 30 days of minute sums of the
 *    queried series, then times one node's 24 h of one series (5,760 points): through the core
 *    (`metricHistory.read`) and through `GET /api/metrics/node/{id}` (`app.inject`, HTTP Basic
 *    with a warm credential cache, JSON included); beside it, 30 days of minute averages.
 *    Median and p90 of 30 runs after 3 warm-ups.
 * Every node started is killed by pid at the end, on error, on exit and on SIGINT/SIGTERM.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type Database } from '@triad/db';
import {
  buildNodeManagerApp,
  createNodeManagerCore,
  loadNodeManagerConfig,
  nodeManagerMigrations,
  NODE_MANAGER_MIGRATION_TABLE,
  startNodeManagerServer,
  type NodeConnector,
  type RunningNodeManagerServer,
} from '@triad/node-manager-service';
import { createLogger } from '@triad/service-kit';
import { median, percentile, printTable } from './bench-utils.js';
import { erlAvailable, killAllErl, startErlNodes, type ErlProcess } from './erl-processes.js';

const COOKIE = 'histbench';
const PASSWORD = 'benchpw1';
const PREFIX = `hist${process.pid}`;
/** Nodes added per step: 20, then 40 in all. */
const STEPS = [20, 40];
const POLL_MS = 250;
const DEFAULT_POLL_MS = 15_000;
const IDLE_WINDOW_MS = 4_000;
const WINDOW_MS = 8_000;
const KERNEL_PLUGIN = 'wombat_plugin_builtin_metrics';
const FACTS_PLUGIN = 'wombat_plugin_node_info';
const COUNTED_SERIES = 'erlang_vm_process_count';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RAW_STEP_MS = 15_000;
const HISTORY_NODES = 5;
const QUERY_RUNS = 30;
/** The end of the synthetic history (a minute boundary); the core's clock stands here. */
const T_END = Math.floor(Date.now() / 60_000) * 60_000;
const QUERIED = [
  'erlang_vm_process_count',
  'erlang_vm_memory_bytes_total{kind="processes"}',
  'erlang_vm_statistics_run_queues_length_total',
];

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The node manager's table map, as its core declares it (the service does not export it by name). */
type NodeManagerTables =
  Parameters<typeof createNodeManagerCore>[0]['database'] extends Database<infer Tables> ? Tables : never;

/** The history tables the fill writes (migration 0004). */
type HistoryTables = {
  nm_metric_series: { id: number; node_id: string; name: string };
  nm_metric_raw: { series_id: number; at: number; value: number };
  nm_metric_minute: { series_id: number; at: number; sum: number; count: number };
};

// ---------------------------------------------------------------------------------------------
// 1. Sampling cost

/** This process' CPU time (user + system) in ms spent while `during` runs. */
async function cpuMsDuring(during: () => Promise<unknown>): Promise<number> {
  const from = process.cpuUsage();
  await during();
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
}

/** Sets the plugins of every node: all off, then the listed ones on. */
async function plugins(server: RunningNodeManagerServer, ids: readonly string[], on: readonly string[]) {
  for (const id of ids) {
    await server.core.plugins.setState(id, 'off');
    for (const name of on) await server.core.plugins.setState(id, 'on', name);
  }
}

/** Samples of `COUNTED_SERIES` the history holds for the nodes within `[from, to]`. */
async function samplesIn(server: RunningNodeManagerServer, ids: readonly string[], from: number, to: number) {
  let count = 0;
  for (const id of ids) count += (await server.core.metricHistory.read(id, COUNTED_SERIES, from, to)).points.length;
  return count;
}

interface Window {
  readonly cpuMs: number;
  readonly samples: number;
}

/** CPU and samples over `ms` with the given plugins on every node (after a 1 s settling time). */
async function window(
  server: RunningNodeManagerServer,
  ids: readonly string[],
  on: readonly string[],
  ms: number,
): Promise<Window> {
  await plugins(server, ids, on);
  await sleep(1_000);
  const from = Date.now();
  const cpuMs = await cpuMsDuring(() => sleep(ms));
  const to = Date.now();
  return { cpuMs, samples: on.length === 0 ? 0 : await samplesIn(server, ids, from, to) };
}

async function samplingCost(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hist-bench-'));
  const nodes: ErlProcess[] = [];
  const ids: string[] = [];
  let server: RunningNodeManagerServer | undefined;
  const rows: (string | number)[][] = [];
  const loadBefore = loadAverage();
  try {
    server = await startNodeManagerServer(
      {
        port: 0,
        host: '127.0.0.1',
        dataDir,
        metricsPollMs: POLL_MS,
        alarmPollMs: 3_600_000,
        limitAlarmPollMs: 3_600_000,
      },
      { env: { TRIAD_LOG_LEVEL: 'warn', TRIAD_ADMIN_PASSWORD: PASSWORD, TRIAD_SCRYPT_COST: '16' } },
    );
    for (const total of STEPS) {
      const started = performance.now();
      const fresh = await startErlNodes(`${PREFIX}_${nodes.length}`, total - nodes.length, COOKIE, 10);
      nodes.push(...fresh);
      const added = await Promise.all(fresh.map((n) => server!.core.topology.addNode(n.name, COOKIE)));
      ids.push(...added.map((n) => n.id));
      const down = added.filter((n) => n.state !== 'UP');
      if (down.length > 0) throw new Error(`${down.length} nodes did not come UP`);
      console.log(`${total} nodes started and UP in ${((performance.now() - started) / 1000).toFixed(1)} s`);

      const idleBefore = await window(server, ids, [], IDLE_WINDOW_MS);
      const measured = [];
      for (const [label, on] of [
        ['kernel sample + history', [KERNEL_PLUGIN]],
        ['kernel sample + history + node facts', [KERNEL_PLUGIN, FACTS_PLUGIN]],
      ] as const)
        measured.push({ label, ...(await window(server, ids, on, WINDOW_MS)) });
      // Idle before and after, averaged: the machine's other load drifts.
      const idleAfter = await window(server, ids, [], IDLE_WINDOW_MS);
      const idlePerMs = (idleBefore.cpuMs + idleAfter.cpuMs) / (2 * IDLE_WINDOW_MS);
      for (const { label, cpuMs, samples } of measured) {
        const expected = Math.round((total * WINDOW_MS) / POLL_MS);
        const net = (cpuMs - idlePerMs * WINDOW_MS) / Math.max(1, samples);
        const gross = cpuMs / Math.max(1, samples);
        const atDefault = (n: number, perSample: number) => `${((n * perSample * 100) / DEFAULT_POLL_MS).toFixed(2)} %`;
        rows.push([
          `${total} nodes, ${label}`,
          `${samples} / ${expected}`,
          `${((cpuMs / WINDOW_MS) * 100).toFixed(1)} % (idle ${(idlePerMs * 100).toFixed(1)} %)`,
          `${net.toFixed(2)} (${gross.toFixed(2)})`,
          `${atDefault(total, net)} (${atDefault(total, gross)})`,
          `${atDefault(200, net)} (${atDefault(200, gross)})`,
        ]);
      }
    }
  } finally {
    await server?.close();
    await Promise.all(nodes.map((n) => n.kill()));
    killAllErl();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`\nSampling every ${POLL_MS} ms for ${WINDOW_MS / 1000} s (SQLite history); this process' CPU:`);
  printTable(
    [
      'what runs on each node',
      'samples / due',
      'CPU in window',
      'CPU ms/sample net (gross)',
      'at 15 s net (gross)',
      '200 nodes at 15 s net (gross)',
    ],
    rows,
  );
  console.log('net: minus the idle CPU with every plugin off (before and after); gross: all CPU in the window');
  console.log(`load average before / after: ${loadBefore} / ${loadAverage()} (target: < 5 % of one core)`);
}

// ---------------------------------------------------------------------------------------------
// 2. History query

/** A connector that never touches the network: every node stays DOWN. */
const quietConnector: NodeConnector = {
  connect: () => Promise.resolve('DOWN'),
  disconnect: () => Promise.resolve(),
  state: () => undefined,
  discover: () => Promise.resolve([]),
  analyseReachability: (name) =>
    Promise.resolve({ reachability: 'is not reachable', details: [], description: name, hints: [] }),
};

/** The 31 series names of one kernel sample, with a plausible value each. */
const SERIES: readonly { name: string; base: number }[] = [
  ['erlang_vm_statistics_run_queues_length_total', 0],
  ...['processes', 'system'].map((k) => [`erlang_vm_memory_bytes_total{kind="${k}"}`, 2e7] as const),
  ...['used', 'free'].map((u) => [`erlang_vm_memory_processes_bytes_total{usage="${u}"}`, 1e7] as const),
  ...['used', 'free'].map((u) => [`erlang_vm_memory_atom_bytes_total{usage="${u}"}`, 5e5] as const),
  ...['atom', 'binary', 'code', 'ets', 'other'].map(
    (u) => [`erlang_vm_memory_system_bytes_total{usage="${u}"}`, 1e6] as const,
  ),
  ...[
    'statistics_reductions_total',
    'statistics_wallclock_time_milliseconds',
    'statistics_runtime_milliseconds',
    'statistics_context_switches',
    'statistics_bytes_received_total',
    'statistics_bytes_output_total',
    'statistics_garbage_collection_number_of_gcs',
    'statistics_garbage_collection_words_reclaimed',
    'process_count',
    'process_limit',
    'port_count',
    'port_limit',
    'atom_count',
    'atom_limit',
    'ets_tables',
    'ets_limit',
    'schedulers',
    'schedulers_online',
  ].map((n) => [`erlang_vm_${n}`, 1000] as const),
  ['triad_node_uptime_seconds', 86_400],
].map(([name, base]) => ({ name: name as string, base: base as number }));

/** Writes 24 h of raw samples of every series of the node and 30 days of minute sums of `QUERIED`. */
async function fillNode(database: Database, nodeId: string): Promise<number> {
  const db = database.db.withTables<HistoryTables>();
  const series = await db.selectFrom('nm_metric_series').select(['id', 'name']).where('node_id', '=', nodeId).execute();
  const byName = new Map(series.map((s) => [s.name, Number(s.id)]));
  const batch = Math.floor(database.capabilities.maxBindParameters / 4);
  let written = 0;
  const insert = async <T extends 'nm_metric_raw' | 'nm_metric_minute'>(table: T, rows: HistoryTables[T][]) => {
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += batch)
        await trx
          .insertInto(table)
          .values(rows.slice(i, i + batch) as never)
          .onConflict((oc) => oc.doNothing())
          .execute();
    });
    written += rows.length;
  };
  const raw: HistoryTables['nm_metric_raw'][] = [];
  for (const { name, base } of SERIES) {
    const id = byName.get(name)!;
    for (let at = T_END - DAY; at <= T_END; at += RAW_STEP_MS)
      raw.push({ series_id: id, at, value: base + ((at / RAW_STEP_MS) % 97) });
  }
  await insert('nm_metric_raw', raw);
  const minute: HistoryTables['nm_metric_minute'][] = [];
  for (const name of QUERIED) {
    const id = byName.get(name)!;
    for (let at = T_END - 30 * DAY; at <= T_END; at += 60_000)
      minute.push({ series_id: id, at, sum: 4 * ((at / 60_000) % 89), count: 4 });
  }
  await insert('nm_metric_minute', minute);
  return written;
}

async function timeAsync(fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < QUERY_RUNS; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b);
}

async function historyQuery(label: string, database: Database<NodeManagerTables>, rows: (string | number)[][]) {
  try {
    await migrateToLatest(database, { migrations: nodeManagerMigrations, tableName: NODE_MANAGER_MIGRATION_TABLE });
    const config = loadNodeManagerConfig({}, { logLevel: 'warn', adminPassword: PASSWORD, scryptCost: 16 });
    const core = createNodeManagerCore({ config, database, connector: quietConnector, now: () => T_END });
    await core.users.ensureAdmin(PASSWORD);
    const started = performance.now();
    const nodeIds: string[] = [];
    let written = 0;
    for (let i = 0; i < HISTORY_NODES; i++) {
      const node = await core.topology.addNode(`hist_${i}@bench.example`, COOKIE);
      nodeIds.push(node.id);
      // The series get their ids the service's way; the rows that follow are bulk inserts.
      await core.metricHistory.record(
        node.id,
        T_END - DAY - RAW_STEP_MS,
        SERIES.map((s) => ({ name: s.name, value: s.base })),
      );
      written += await fillNode(database, node.id);
    }
    console.log(
      `${label}: ${written} history rows for ${HISTORY_NODES} nodes written in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s (${database.location})`,
    );
    const { app } = await buildNodeManagerApp({
      config,
      database,
      core,
      logger: createLogger({ level: 'warn', stream: 'stderr' }),
    });
    const headers = { authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}` };
    const target = nodeIds[Math.floor(HISTORY_NODES / 2)]!;
    try {
      for (const name of QUERIED) {
        const from = T_END - DAY;
        const points = (await core.metricHistory.read(target, name, from, T_END)).points.length;
        const url = `/api/metrics/node/${target}?name=${encodeURIComponent(name)}&from=${from}&to=${T_END}`;
        const check = await app.inject({ method: 'GET', url, headers });
        const replied = check.json<{ points: unknown[] }>().points.length;
        if (check.statusCode !== 200 || replied !== points) throw new Error(`${label}: ${url} -> ${check.statusCode}`);
        const core24 = await timeAsync(() => core.metricHistory.read(target, name, from, T_END));
        const http24 = await timeAsync(() => app.inject({ method: 'GET', url, headers }));
        const monthUrl = url.replace(`from=${from}`, `from=${T_END - 30 * DAY}`);
        const month = await timeAsync(() => app.inject({ method: 'GET', url: monthUrl, headers }));
        const monthPoints = (await app.inject({ method: 'GET', url: monthUrl, headers })).json<{ points: unknown[] }>()
          .points.length;
        rows.push([
          `${label}: ${name}`,
          String(points),
          median(core24),
          percentile(core24, 90),
          median(http24),
          percentile(http24, 90),
          `${median(month).toFixed(1)} (${monthPoints} pts)`,
        ]);
      }
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

async function historyQueries(): Promise<void> {
  const rows: (string | number)[][] = [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hist-bench-db-'));
  try {
    await historyQuery('sqlite', openDatabase<NodeManagerTables>({ sqliteFile: path.join(dir, 'nm.sqlite') }), rows);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const pgUrl = process.env.TRIAD_BENCH_DATABASE_URL || process.env.TRIAD_TEST_DATABASE_URL;
  if (pgUrl) {
    const schema = `nm_hist_bench_${process.pid}`;
    try {
      await historyQuery('postgres', openDatabase<NodeManagerTables>({ url: pgUrl, schema }), rows);
    } finally {
      const admin = openDatabase({ url: pgUrl });
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
      await admin.close();
    }
  } else {
    console.log('PostgreSQL skipped: set TRIAD_BENCH_DATABASE_URL or TRIAD_TEST_DATABASE_URL to a postgres:// URL');
  }
  console.log(`\nOne node's 24 h of one series (raw, every 15 s), ms; median and p90 of ${QUERY_RUNS} runs:`);
  printTable(
    ['database: series', 'points', 'core read', 'p90', 'GET (inject)', 'p90', '30 days GET (minute avg)'],
    rows,
  );
  console.log('target: < 20 ms');
}

async function main(): Promise<void> {
  console.log(`machine: ${os.cpus().length} cores, load average ${loadAverage()}`);
  if (erlAvailable()) await samplingCost();
  else console.log('sampling cost skipped: erl is not installed');
  await historyQueries();
}

await main();
