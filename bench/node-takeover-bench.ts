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
 * runs. For the alarm list's throughput on PostgreSQL see `node-manager-bench.ts`.
 */
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

/** Takeover times of one lease setting in a fresh schema: [owned again, connected again] per run, ms. */
async function measure(
  baseUrl: string,
  setting: (typeof SETTINGS)[number],
  nodes: readonly ErlProcess[],
): Promise<[number, number][]> {
  const schema = `bench_takeover_${randomBytes(4).toString('hex')}`;
  const admin = openDatabase({ url: baseUrl, maxConnections: 1 });
  await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const dirs: string[] = [];
  const env = () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'nm-takeover-'));
    dirs.push(dataDir);
    return {
      DATABASE_URL: url.href,
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
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
    await admin.close();
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
