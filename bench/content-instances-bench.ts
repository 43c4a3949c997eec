/**
 * Search throughput of 1, 2 and 3 content API instances on one PostgreSQL database.
 *
 *   npm run bench -- content-instances
 *   BENCH_ARTICLES=200000 BENCH_SECONDS=15 npm run bench -- content-instances
 *
 * Needs PostgreSQL (`TRIAD_BENCH_DATABASE_URL` or `TRIAD_TEST_DATABASE_URL`, a user that may
 * create databases); without it, it says so and exits. In a fresh database it starts the first
 * instance as `triad serve content-api` with a demo catalog of BENCH_ARTICLES (100,000), then two
 * more on the same database, each its own process on a loopback port. For 1, 2 and 3 instances,
 * BENCH_CONCURRENCY (16) clients send full-text searches (count and four facets each) round-robin
 * to the instances for BENCH_SECONDS (10). It prints requests/s, latency p50/p99, and the CPU the
 * instances spent per request (from /proc), which gives what one core serves and so what more
 * cores would serve. The load generator runs on the same machine and its CPU is printed too.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { startSourceProcess, waitForProcess, type SourceProcess } from '@triad/service-kit/testing';
import { freePort } from '../packages/db/src/free-port.js';
import { createScratchDatabase } from '../packages/db/src/scratch-database.js';
import { cpuSeconds, percentile, printTable } from './bench-utils.js';

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const INSTANCES = 3;
const CLIENT_ID = 'bench-instances';
const CLIENT_SECRET = randomBytes(24).toString('base64url');
const ACCEPT = 'application/vnd.vendor.content.v1+json';
const REQUISITIONER = 'x-svc-requisitioner-id';
const TEXTS = ['pipette', 'bosch blau', 'copy paper', 'ordner schwarz', 'gants', 'akkuschrauber makita', 'labels A4'];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverUrl = process.env.TRIAD_BENCH_DATABASE_URL ?? process.env.TRIAD_TEST_DATABASE_URL;

interface Instance {
  readonly process: SourceProcess;
  readonly base: string;
  token: string;
}

async function startInstance(databaseUrl: string, demo: boolean): Promise<Instance> {
  const port = await freePort();
  const started = startSourceProcess({
    cwd: root,
    args: ['apps/cli/src/bin.ts', 'serve', 'content-api', '--port', String(port)],
    env: {
      DATABASE_URL: databaseUrl,
      TRIAD_DEMO: demo ? '1' : '0',
      TRIAD_CONTENT_DEMO_ARTICLES: String(ARTICLES),
      TRIAD_OAUTH_CLIENT_ID: CLIENT_ID,
      TRIAD_OAUTH_CLIENT_SECRET: CLIENT_SECRET,
      TRIAD_LOG_LEVEL: 'warn',
      TRIAD_LOG_FORMAT: 'json',
    },
  });
  // Seeding a large demo catalog comes first: up to 15 minutes.
  await waitForProcess(
    started,
    () => started.stdout().includes('Press Ctrl+C to stop.'),
    15 * 60_000,
    `instance on ${port} not ready`,
  );
  const base = `http://127.0.0.1:${port}`;
  const issued = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET }),
  });
  const token = ((await issued.json()) as { access_token: string }).access_token;
  return { process: started, base, token };
}

interface LoadResult {
  readonly requests: number;
  readonly failed: number;
  readonly latencies: number[];
  readonly seconds: number;
}

/** GETs `url` on a keep-alive agent; resolves with the status once the body is read. */
function get(url: string, agent: http.Agent, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (reply) => {
      reply.resume();
      reply.once('end', () => resolve(reply.statusCode ?? 0));
      reply.once('error', reject);
    });
    req.once('error', reject);
  });
}

async function load(instances: readonly Instance[], agent: http.Agent): Promise<LoadResult> {
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  const started = performance.now();
  const end = started + SECONDS * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const n = next++;
      const instance = instances[n % instances.length]!;
      const q = encodeURIComponent(TEXTS[n % TEXTS.length]!);
      const t0 = performance.now();
      try {
        const status = await get(`${instance.base}/api/articles?q=${q}`, agent, {
          authorization: `Bearer ${instance.token}`,
          accept: ACCEPT,
          [REQUISITIONER]: 'bench',
        });
        if (status !== 200) failed += 1;
      } catch {
        failed += 1;
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { requests: latencies.length, failed, latencies, seconds: (performance.now() - started) / 1000 };
}

async function main(): Promise<void> {
  if (!serverUrl) {
    console.log('content-instances: skipped, set TRIAD_BENCH_DATABASE_URL or TRIAD_TEST_DATABASE_URL (PostgreSQL)');
    return;
  }
  const scratch = await createScratchDatabase(serverUrl, 'triad_bench_instances');
  const databaseUrl = scratch.url;
  const instances: Instance[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    const seedStart = performance.now();
    instances.push(await startInstance(databaseUrl, true));
    console.log(
      `first instance ready with ${ARTICLES} demo articles in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );
    for (let i = 1; i < INSTANCES; i += 1) instances.push(await startInstance(databaseUrl, false));
    // Warm every instance (the first search loads its segments).
    await load(instances, agent);
    const rows: (string | number)[][] = [];
    for (let count = 1; count <= INSTANCES; count += 1) {
      const used = instances.slice(0, count);
      const cpuBefore = used.map((instance) => cpuSeconds(instance.process.child.pid!));
      const ownBefore = process.cpuUsage();
      const result = await load(used, agent);
      const cpu = used.reduce((sum, instance, i) => sum + cpuSeconds(instance.process.child.pid!) - cpuBefore[i]!, 0);
      const own = process.cpuUsage(ownBefore);
      const sorted = result.latencies.sort((a, b) => a - b);
      const cpuPerRequestMs = (cpu * 1000) / Math.max(1, result.requests);
      rows.push([
        String(count),
        Math.round(result.requests / result.seconds),
        percentile(sorted, 50),
        percentile(sorted, 99),
        result.failed,
        cpuPerRequestMs,
        Math.round(1000 / cpuPerRequestMs),
        (own.user + own.system) / 1e6 / result.seconds,
      ]);
    }
    printTable(
      [
        'instances',
        'req/s',
        'p50 ms',
        'p99 ms',
        'failed',
        'instance CPU ms/req',
        'req/s per core (projected)',
        'load generator cores',
      ],
      rows,
    );
    console.log(
      `machine: ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}; ${CONCURRENCY} clients, ${SECONDS} s per row, ${ARTICLES} articles`,
    );
  } finally {
    agent.destroy();
    await Promise.all(instances.map((instance) => instance.process.kill()));
    await scratch.drop();
  }
}

await main();
