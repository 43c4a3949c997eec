/**
 * How long the nodes of a node manager killed with `kill -9` stay unmonitored when several
 * instances share one PostgreSQL database (issue 17, docs/decisions/0027). About 5 minutes;
 * prints numbers, asserts nothing.
 *
 *   npm run bench -- node-takeover          (BENCH_NODES=8, BENCH_RUNS=10 by default)
 *
 * Needs `erl` and `TRIAD_BENCH_DATABASE_URL` (or `TRIAD_TEST_DATABASE_URL`). For each lease
 * setting (the defaults, then the faster one the docs recommend where the database is near), in a
 * fresh schema: instance A runs in this process and manages BENCH_NODES real nodes; each run
 * starts instance B as a child process, waits until B holds its share, kills B with SIGKILL and
 * times, from just before the signal, (1) until A's `/healthz` says it owns every node and
 * (2) until A's connection to every node is UP again (monitoring resumed). p50 and max over the
 * runs.
 *
 * Then the alarm list on PostgreSQL as an instance serves it (`GET /api/alarm`, 20 of 2,000
 * active alarms): since issue 17 an instance on PostgreSQL keeps each list until any instance
 * changes an alarm (the change bus tells it) or for 1 s at most. autocannon in its own process,
 * 50 connections, 1 s warm-up then 5 s. `node-manager-bench.ts` measures the uncached query.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { openDatabase } from '@triad/db';
import { startNodeManagerServer, type RunningNodeManagerServer } from '@triad/node-manager-service';
import {
  startNodeManagerProcess,
  type NodeManagerProcess,
} from '../services/node-manager/src/test-support/node-manager-process.js';
import { median, percentile, printTable } from './bench-utils.js';
import { erlAvailable, killAllErl, startErl, type ErlProcess } from './erl-processes.js';

const NODES = Number(process.env['BENCH_NODES'] ?? 8);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 10);
const SETTINGS = [
  { label: 'default (ttl 15 s, heartbeat 3 s)', ttlMs: 15_000, heartbeatMs: 3_000 },
  { label: 'near database (ttl 6 s, heartbeat 2 s)', ttlMs: 6_000, heartbeatMs: 2_000 },
] as const;
const ADMIN = { authorization: `Basic ${Buffer.from('admin:Admin123').toString('base64')}` };

/** Polls `probe` every 20 ms until it is true; rejects naming `what` after `timeoutMs`. */
async function until(probe: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!(await probe())) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function nodesOwned(url: string): Promise<number> {
  return ((await (await fetch(`${url}/healthz`)).json()) as { nodesOwned: number }).nodesOwned;
}

/** A fresh schema of the server at `baseUrl`: its URL (via `search_path`) and its removal. */
async function freshSchema(baseUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = openDatabase({ url: baseUrl, maxConnections: 1 });
  await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.href,
    async drop() {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
      await admin.close();
    },
  };
}

/**
 * Requests per second and p50/p99 latency (ms) of `GET url` under autocannon, in its own process
 * (run asynchronously: the server answering is in this one).
 */
async function autocannon(
  url: string,
  seconds: number,
): Promise<{ rps: number; p50: number; p99: number; non2xx: number }> {
  const bin = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'autocannon');
  const args = ['-c', '50', '-d', String(seconds), '-j', '-H', `authorization=${ADMIN.authorization}`, url];
  const { stdout } = await promisify(execFile)(bin, args, { encoding: 'utf8' });
  const out = JSON.parse(stdout) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    non2xx: number;
  };
  return { rps: out.requests.average, p50: out.latency.p50, p99: out.latency.p99, non2xx: out.non2xx };
}

/** The alarm list as one instance on PostgreSQL serves it, with its shared list cache. */
async function alarmList(baseUrl: string): Promise<void> {
  const schema = await freshSchema(baseUrl, 'bench_alarm_list');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'nm-alarm-list-'));
  let server: RunningNodeManagerServer | undefined;
  try {
    server = await startNodeManagerServer(
      { port: 0 },
      {
        env: {
          DATABASE_URL: schema.url,
          TRIAD_DATA_DIR: dataDir,
          TRIAD_SCRYPT_COST: '16',
          TRIAD_LOG_LEVEL: 'silent',
          TRIAD_ADMIN_PASSWORD: 'Admin123',
        },
      },
    );
    for (let i = 0; i < 2_000; i++)
      await server.core.alarms.raise({ alarmId: `bench_${i}`, nodeId: `node-${i % 20}`, nodeName: `n${i % 20}@h` });
    const url = `${server.url}/api/alarm`;
    const first = (await (await fetch(url, { headers: ADMIN })).json()) as { alarms: unknown[] };
    if (first.alarms.length !== 20) throw new Error(`expected 20 alarms, got ${first.alarms.length}`);
    await autocannon(url, 1);
    const r = await autocannon(url, 5);
    printTable(
      ['alarm list on PostgreSQL (one instance)', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx'],
      [['GET /api/alarm (20 of 2k), cached until a change', r.rps, r.p50, r.p99, String(r.non2xx)]],
    );
  } finally {
    await server?.close();
    await schema.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Takeover times of one lease setting in a fresh schema: [owned again, connected again] per run, ms. */
async function measure(
  baseUrl: string,
  setting: (typeof SETTINGS)[number],
  nodes: readonly ErlProcess[],
): Promise<[number, number][]> {
  const schema = await freshSchema(baseUrl, 'bench_takeover');
  const dirs: string[] = [];
  const env = () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'nm-takeover-'));
    dirs.push(dataDir);
    return {
      DATABASE_URL: schema.url,
      TRIAD_DATA_DIR: dataDir,
      TRIAD_SECRET_KEY: secretKey,
      TRIAD_SCRYPT_COST: '16',
      TRIAD_LOG_LEVEL: 'silent',
      TRIAD_ADMIN_PASSWORD: 'Admin123',
      TRIAD_NODE_MANAGER_LEASE_TTL_MS: String(setting.ttlMs),
      TRIAD_NODE_MANAGER_LEASE_HEARTBEAT_MS: String(setting.heartbeatMs),
    };
  };
  const secretKey = randomBytes(32).toString('hex');
  let a: RunningNodeManagerServer | undefined;
  let b: NodeManagerProcess | undefined;
  const times: [number, number][] = [];
  try {
    a = await startNodeManagerServer({ port: 0 }, { env: env() });
    const ids: string[] = [];
    for (const node of nodes) {
      const reply = await fetch(`${a.url}/api/topo/action/add-node`, {
        method: 'POST',
        headers: { ...ADMIN, 'content-type': 'application/json' },
        body: JSON.stringify({ name: node.name, cookie: 'takeover' }),
      });
      const added = (await reply.json()) as { id: string; state: string };
      if (added.state !== 'UP') throw new Error(`${node.name} was not UP when added`);
      ids.push(added.id);
    }
    const server = a;
    for (let run = 0; run < RUNS; run++) {
      const child = await startNodeManagerProcess(env());
      b = child;
      await until(
        async () => (await nodesOwned(child.url)) > 0 && (await nodesOwned(server.url)) < NODES,
        120_000,
        'B to take its share',
      );
      const started = performance.now();
      await child.kill();
      b = undefined;
      await until(async () => (await nodesOwned(server.url)) === NODES, 120_000, 'A to own every node');
      const owned = performance.now() - started;
      await until(
        () => ids.every((id) => server.core.connector.state(id) === 'UP'),
        60_000,
        'A connected to every node',
      );
      times.push([owned, performance.now() - started]);
      process.stdout.write('.');
    }
    process.stdout.write('\n');
    return times;
  } finally {
    await b?.kill();
    await a?.close();
    await schema.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const baseUrl = process.env['TRIAD_BENCH_DATABASE_URL'] || process.env['TRIAD_TEST_DATABASE_URL'];
  if (!baseUrl || !erlAvailable()) {
    console.log('skipped: needs erl and TRIAD_BENCH_DATABASE_URL (or TRIAD_TEST_DATABASE_URL) set to PostgreSQL');
    return;
  }
  console.log(
    `${os.cpus().length} cores, load ${os.loadavg()[0]?.toFixed(2)}; ${NODES} nodes, ${RUNS} runs per setting`,
  );
  if (!process.argv.includes('--alarm-list-only')) await takeover(baseUrl);
  await alarmList(baseUrl);
}

async function takeover(baseUrl: string): Promise<void> {
  const nodes: ErlProcess[] = [];
  try {
    for (let i = 0; i < NODES; i++) nodes.push(await startErl(`nm_takeover_${process.pid}_${i}`, 'takeover'));
    const rows: (string | number)[][] = [];
    for (const setting of SETTINGS) {
      const times = await measure(baseUrl, setting, nodes);
      const owned = times.map((t) => t[0]).sort((x, y) => x - y);
      const connected = times.map((t) => t[1]).sort((x, y) => x - y);
      rows.push([
        setting.label,
        median(owned) / 1000,
        percentile(owned, 100) / 1000,
        median(connected) / 1000,
        percentile(connected, 100) / 1000,
      ]);
    }
    printTable(['takeover after kill -9, s', 'owned p50', 'owned max', 'monitored p50', 'monitored max'], rows);
  } finally {
    killAllErl();
  }
}

await main();
