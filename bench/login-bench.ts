/**
 * Failed sign-ins of the node manager (services/node-manager), on a temporary SQLite file with the
 * production scrypt cost (N = 16384), through `app.inject` (no sockets):
 *
 *   - the time of a wrong password for an existing user and for an unknown one (30 each, one
 *     attempt per client address and an hour apart on the service's clock, so throttling never
 *     answers instead of scrypt);
 *   - the p50/p99 of 200 `GET /api/topo/node` calls by a signed-in user alone (the baseline) and
 *     while 100 wrong passwords arrive at once: for `admin` from one address (throttled after 3),
 *     for `admin` from 100 addresses (throttled after the username's 10 free failures), and for
 *     100 usernames from 100 addresses (nothing throttled: every one runs scrypt).
 *
 * Password hashes run `TRIAD_PASSWORD_HASH_CONCURRENCY` at a time (0, the default: one less than
 * the cores); `BENCH_HASH_CONCURRENCY=4` runs as many as libuv's thread pool, as before the limit.
 *
 *   node --conditions=source --import tsx bench/login-bench.ts     (or `npm run bench -- login`)
 *
 * Prints numbers; asserts nothing about time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDatabase, type Database } from '@triad/db';
import {
  buildNodeManagerApp,
  createNodeManagerCore,
  loadNodeManagerConfig,
  nodeManagerMigrations,
  NODE_MANAGER_MIGRATION_TABLE,
} from '@triad/node-manager-service';
import { median, printTable } from './bench-utils.js';

const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** The node manager's table map, as its core declares it. */
type NodeManagerDatabase =
  Parameters<typeof createNodeManagerCore>[0]['database'] extends Database<infer Tables> ? Tables : never;

const dir = mkdtempSync(path.join(os.tmpdir(), 'login-bench-'));
const database = openDatabase<NodeManagerDatabase>({ sqliteFile: path.join(dir, 'nm.sqlite') });
try {
  await migrateToLatest(database, { migrations: nodeManagerMigrations, tableName: NODE_MANAGER_MIGRATION_TABLE });
  const config = loadNodeManagerConfig(
    {},
    { logLevel: 'silent', dataDir: dir, passwordHashConcurrency: Number(process.env['BENCH_HASH_CONCURRENCY'] ?? 0) },
  );

  let offset = 0;
  const core = createNodeManagerCore({ config, database, now: () => Date.now() + offset });
  console.log(
    `${os.availableParallelism()} cores, load ${os.loadavg()[0]!.toFixed(2)}, ` +
      `${core.users.hasher.concurrency} password hash(es) at a time`,
  );
  const { app } = await buildNodeManagerApp({ config, database, core });
  await core.users.ensureAdmin('adminpw1');
  await core.users.addUser('viewer', 'viewerpw1');
  await app.ready();
  const ms = async (run: () => Promise<unknown>) => {
    const start = process.hrtime.bigint();
    await run();
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  const attempt = (user: string, address: string) =>
    app.inject({ method: 'GET', url: '/api/users/username', headers: basic(user, 'wrongpw1'), remoteAddress: address });

  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < 32; i++) {
    offset += 3_600_000;
    const k = await ms(() => attempt('admin', `10.0.0.${i}`));
    offset += 3_600_000;
    const u = await ms(() => attempt(`nobody${i}`, `10.0.1.${i}`));
    // The first two warm up (and make the dummy hash).
    if (i >= 2) {
      known.push(k);
      unknown.push(u);
    }
  }
  known.sort((a, b) => a - b);
  unknown.sort((a, b) => a - b);
  printTable(
    ['wrong password', 'median ms', 'p99 ms'],
    [
      ['existing user', median(known).toFixed(1), percentile(known, 99).toFixed(1)],
      ['unknown user', median(unknown).toFixed(1), percentile(unknown, 99).toFixed(1)],
    ],
  );

  const viewer = basic('viewer', 'viewerpw1');
  await app.inject({ method: 'GET', url: '/api/topo/node', headers: viewer, remoteAddress: '10.9.9.9' });
  const burst = async (
    label: string,
    addressOf: (i: number) => string,
    userOf: (i: number) => string = () => 'admin',
    count = 100,
  ) => {
    offset += 3_600_000;
    const others: Promise<number>[] = [];
    const guesses = Array.from({ length: count }, (_, i) => attempt(userOf(i), addressOf(i)));
    for (let i = 0; i < 200; i++) {
      others.push(
        ms(() => app.inject({ method: 'GET', url: '/api/topo/node', headers: viewer, remoteAddress: '10.9.9.9' })),
      );
      if (i % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const statuses = (await Promise.all(guesses)).map((r) => r.statusCode);
    const times = (await Promise.all(others)).sort((a, b) => a - b);
    return [
      label,
      String(statuses.filter((s) => s === 401).length),
      String(statuses.filter((s) => s === 429).length),
      median(times).toFixed(1),
      percentile(times, 99).toFixed(1),
    ];
  };
  printTable(
    ['100 wrong passwords', '401', '429', 'others p50 ms', 'others p99 ms'],
    [
      // The same 200 requests with no guess: what the machine gives them anyway.
      await burst('none (baseline)', () => '10.4.0.1', undefined, 0),
      await burst('admin, one address', () => '10.5.0.1'),
      await burst('admin, 100 addresses', (i) => `10.6.0.${i}`),
      await burst(
        '100 users, 100 addresses',
        (i) => `10.7.0.${i}`,
        (i) => `spray${i}`,
      ),
    ],
  );
  await app.close();
} finally {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}
