/**
 * 10,000 SNMP devices on one template-service instance with history on (issue 29; aim: under half
 * a core, and 30 days of one datapoint in under 50 ms). The REAL collection path: the template
 * service's app (`buildTemplatesApp`) with its device collection, supervisor, collectors, the
 * default SNMP driver (v2c) and the history writer, on a SQLite file (or PostgreSQL with
 * BENCH_SCALE_DB=postgres). Every device reads 20 scalars (the system group and 13 ifTable
 * columns of ifIndex 1: a few change each poll, the rest are flat and kept by the heartbeat) in
 * the 10 s polling group from a real snmpd on loopback (BENCH_SCALE_AGENTS of them, devices
 * spread round-robin). The devices are stored first with collection off, then a second app starts
 * collecting them all (as after a restart); after every device polled once plus one period, this
 * process's CPU (from /proc: all threads, the SQLite engine included) and each snmpd's are
 * measured over BENCH_SCALE_SECONDS, with values read, history rows and drops. After that, while
 * collection goes on, `GET /devices/{id}/history` of 30 days of one datapoint (43,200 minute rows
 * seeded beforehand) is timed 100 times.
 * Run: `npm run bench -- device-scale` (needs /usr/sbin/snmpd; about 5 min).
 * Env: BENCH_SCALE_DEVICES (10000), BENCH_SCALE_SECONDS (120), BENCH_SCALE_AGENTS (1),
 * BENCH_SCALE_DB (sqlite | postgres: TRIAD_BENCH_DATABASE_URL or TRIAD_TEST_DATABASE_URL).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type Database } from '@triad/db';
import { defaultDriverRegistry, DriverRegistry } from '@triad/device-drivers';
import type { Datapoint } from '@triad/device-templates';
import {
  buildTemplatesApp,
  DeviceHistoryRepository,
  loadTemplatesConfig,
  templatesMigrations,
  TEMPLATES_MIGRATION_TABLE,
  type TemplatesDatabase,
} from '@triad/templates-service';
import { SNMPD, startSnmpd, type SnmpdServer } from '../packages/device-drivers/src/test-support/snmpd-server.js';
import { mapSet, snmpPoint, snmpTemplate } from '../packages/device-drivers/src/test-support/snmp-templates.js';
import { cpuSeconds, median, percentile, printTable } from './bench-utils.js';
import { countingDriver, noCounts } from './counting-driver.js';

const DEVICES = Number(process.env['BENCH_SCALE_DEVICES'] ?? 10_000);
const SECONDS = Number(process.env['BENCH_SCALE_SECONDS'] ?? 120);
const AGENTS = Number(process.env['BENCH_SCALE_AGENTS'] ?? 1);
const ENGINE = process.env['BENCH_SCALE_DB'] === 'postgres' ? 'postgres' : 'sqlite';
const PERIOD_MS = 10_000;
const MINUTE = 60_000;
const DAY = 86_400_000;
const QUERY_RUNS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const gc = () => (globalThis as { gc?: () => void }).gc?.();

/** 20 scalars: sysDescr .. sysORLastChange (7) and 13 ifTable columns of ifIndex 1, every 10 s. */
function points(): Datapoint[] {
  const system = [1, 2, 3, 4, 5, 6, 8].map((n) =>
    snmpPoint(`sys${n}`, `1.3.6.1.2.1.1.${n}.0`, n === 3 || n === 8 ? 'LONG' : 'STRING'),
  );
  const columns = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14];
  const interfaces = columns.map((c) =>
    snmpPoint(`if${c}`, `1.3.6.1.2.1.2.2.1.${c}.1`, c === 2 || c === 6 ? 'STRING' : 'LONG'),
  );
  return [...system, ...interfaces].map((p) =>
    p.addressConfig === undefined ? p : { ...p, addressConfig: { ...p.addressConfig, pollingGroup: '10s' } },
  );
}

/** CPU seconds of a process, NaN once it is gone. */
const processCpu = (pid: number | undefined) =>
  pid === undefined || !existsSync(`/proc/${pid}/stat`) ? NaN : cpuSeconds(pid);

/** Resident set size of this process, MiB (from /proc, as an operator's `ps` sees it). */
const MiB = 1024 * 1024;
const rssMiB = () => process.memoryUsage().rss / MiB;

/** One number of the Prometheus text `metrics`. */
function metric(metrics: string, name: string): number {
  const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics);
  return match === null ? NaN : Number(match[1]);
}

/** Local ports of this process's TCP sockets (from /proc: its socket inodes, then the tcp tables). */
function ownTcpPorts(): Set<number> {
  const inodes = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`));
      if (match !== null) inodes.add(match[1]!);
    } catch {
      // Closed meanwhile.
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6'])
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length > 9 && inodes.has(fields[9]!)) ports.add(parseInt(fields[1]!.split(':')[1]!, 16));
    }
  return ports;
}

async function openBenchDatabase(): Promise<{
  database: Database<TemplatesDatabase>;
  dispose: () => Promise<void>;
  /** The PostgreSQL server processes serving this process's connections (none on SQLite). */
  backends: () => Promise<number[]>;
}> {
  if (ENGINE === 'sqlite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'triad-device-scale-'));
    const database = openDatabase<TemplatesDatabase>({ sqliteFile: path.join(dir, 'templates.sqlite') });
    return {
      database,
      dispose: async () => {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
      backends: () => Promise.resolve([]),
    };
  }
  const url = process.env['TRIAD_BENCH_DATABASE_URL'] || process.env['TRIAD_TEST_DATABASE_URL'];
  if (!url) throw new Error('BENCH_SCALE_DB=postgres needs TRIAD_BENCH_DATABASE_URL or TRIAD_TEST_DATABASE_URL');
  const schema = `device_scale_bench_${process.pid}`;
  const admin = openDatabase({ url });
  await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  const database = openDatabase<TemplatesDatabase>({ url, schema });
  return {
    database,
    dispose: async () => {
      await database.close();
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
      await admin.close();
    },
    backends: async () => {
      const ports = ownTcpPorts();
      const { rows } = await sql<{ pid: number; client_port: number }>`select pid, client_port
          from pg_stat_activity where client_port is not null and pid <> pg_backend_pid()`.execute(admin.db);
      return rows.filter((row) => ports.has(row.client_port)).map((row) => row.pid);
    },
  };
}

async function main(): Promise<void> {
  if (!existsSync(SNMPD)) {
    console.log(`skipped: ${SNMPD} not found (apt-get install snmpd snmp)`);
    return;
  }
  const agents: SnmpdServer[] = [];
  for (let i = 0; i < AGENTS; i++) agents.push(await startSnmpd());
  const { database, dispose, backends } = await openBenchDatabase();
  await migrateToLatest(database, { migrations: templatesMigrations, tableName: TEMPLATES_MIGRATION_TABLE });
  const secretKey = randomBytes(32).toString('hex');
  const configOf = (collectDevices: boolean) =>
    loadTemplatesConfig(
      {},
      {
        demo: false,
        logLevel: 'silent',
        writeAccess: 'open',
        devicesReadAccess: 'open',
        collectDevices,
        secretKey,
        historyEnabled: true,
        // Only the history counts of /metrics are read here.
        metricsMaxSeries: 1,
      },
    );

  // 1. Store the template and the devices, with collection off; seed 30 days of one datapoint.
  const template = snmpTemplate([mapSet('device', points())]);
  let app = await buildTemplatesApp({ config: configOf(false), database });
  await app.ready();
  const stored = await app.inject({ method: 'POST', url: '/templates', payload: template });
  if (stored.statusCode >= 300) throw new Error(stored.body);
  const storeStart = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < DEVICES; i += 16) {
    const replies = await Promise.all(
      Array.from({ length: Math.min(16, DEVICES - i) }, (_, k) =>
        app.inject({
          method: 'POST',
          url: '/devices',
          payload: {
            name: `snmp-${i + k}`,
            templateId: template.templateId,
            templateVersion: template.templateVersion,
            variables: { ICMP_IPAddress: '127.0.0.1' },
            drivers: {
              'svc-ds-drv-snmp': {
                basicConfig: { port: agents[(i + k) % AGENTS]!.port, version: 2, timeout: 2000, retries: 1 },
              },
            },
          },
        }),
      ),
    );
    for (const reply of replies) {
      if (reply.statusCode !== 201) throw new Error(reply.body);
      ids.push(reply.json<{ id: string }>().id);
    }
  }
  const storeS = (performance.now() - storeStart) / 1000;
  console.error(`stored ${DEVICES} devices in ${storeS.toFixed(0)} s`);
  const repository = new DeviceHistoryRepository(database);
  const now = Math.floor(Date.now() / MINUTE) * MINUTE;
  // Older than the raw retention (24 h) except the last day: 30 days of minute rows for sys3 of device 0.
  for (let i = 0; i < 30 * 24 * 60; i += 5_000)
    await repository.write(
      Array.from({ length: Math.min(5_000, 30 * 24 * 60 - i) }, (_, k) => ({
        deviceId: ids[0]!,
        setId: 'device',
        datapointId: 'if10',
        row: '',
        at: now - 2 * DAY - (i + k) * MINUTE,
        value: Math.sin((i + k) / 100) * 50 + 50,
        text: null,
      })),
    );
  await app.close();

  // 2. A new app collects every device; the SNMP driver counts what it reads.
  const counts = noCounts();
  const defaults = defaultDriverRegistry({});
  const counted = countingDriver(defaults.get('svc-ds-drv-snmp')!, counts);
  const registry = new DriverRegistry([counted], defaults.guard);
  const collectStart = performance.now();
  const cpuAtStart = cpuSeconds(process.pid);
  app = await buildTemplatesApp({ config: configOf(true), database, registry });
  await app.ready();
  while (counts.created < DEVICES) await sleep(200);
  const startS = (performance.now() - collectStart) / 1000;
  const startCpuS = cpuSeconds(process.pid) - cpuAtStart;
  console.error(`all ${DEVICES} devices collecting after ${((performance.now() - collectStart) / 1000).toFixed(0)} s`);
  await sleep(PERIOD_MS);
  gc();

  const history = async () => {
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    return {
      written: metric(metrics, 'triad_device_history_written_total'),
      dropped: metric(metrics, 'triad_device_history_dropped_total'),
      queued: metric(metrics, 'triad_device_history_queued'),
    };
  };
  const before = { history: await history(), ...counts };
  const load = os.loadavg()[0]!;
  const cpuBefore = cpuSeconds(process.pid);
  const agentsBefore = agents.map((a) => processCpu(a.pid()));
  // The pool closes idle connections, so backends come and go: sampled every second, a backend's
  // CPU counts from the start (or from its start when it appeared later) to its last sample.
  const backendCpu = new Map<number, { first: number; last: number }>();
  const sampleBackends = async (starting: boolean) => {
    for (const pid of await backends()) {
      const cpu = processCpu(pid);
      if (Number.isNaN(cpu)) continue;
      const seen = backendCpu.get(pid);
      if (seen === undefined) backendCpu.set(pid, { first: starting ? cpu : 0, last: cpu });
      else seen.last = cpu;
    }
  };
  await sampleBackends(true);
  const backendTimer = setInterval(() => void sampleBackends(false), 1_000);
  const rss: number[] = [];
  const measureStart = performance.now();
  for (let s = 0; s < SECONDS; s += 5) {
    await sleep(5_000);
    rss.push(rssMiB());
  }
  const elapsedS = (performance.now() - measureStart) / 1000;
  gc();
  const memory = process.memoryUsage();
  const spaces = getHeapSpaceStatistics().filter((space) => space.space_size >= MiB);
  if (process.env['BENCH_SCALE_SNAPSHOT']) console.error(`heap snapshot: ${writeHeapSnapshot()}`);
  const cpuS = cpuSeconds(process.pid) - cpuBefore;
  const agentCpuS = agents.map((a, i) => processCpu(a.pid()) - agentsBefore[i]!);
  clearInterval(backendTimer);
  await sampleBackends(false);
  const backendCpuS = [...backendCpu.values()].reduce((sum, { first, last }) => sum + last - first, 0);
  const after = { history: await history(), ...counts };
  const loadAfter = os.loadavg()[0]!;

  // 3. 30 days of one datapoint while collection goes on.
  const url = `/devices/${ids[0]}/history?set=device&datapoint=if10&from=${now - 32 * DAY}&to=${now}`;
  const first = await app.inject({ method: 'GET', url });
  const answer = first.json<{ buckets?: unknown[]; points?: unknown[]; step: number }>();
  const samples: number[] = [];
  for (let i = 0; i < QUERY_RUNS; i++) {
    const start = performance.now();
    const reply = await app.inject({ method: 'GET', url });
    samples.push(performance.now() - start);
    if (reply.statusCode !== 200) throw new Error(reply.body);
  }
  samples.sort((a, b) => a - b);

  await app.close();
  await dispose();
  for (const agent of agents) await agent.close();

  const rate = (key: 'valuesRead' | 'reads') => (after[key] - before[key]) / elapsedS;
  const written = after.history.written - before.history.written;
  console.log(
    `${DEVICES} SNMP v2c devices x ${points().length} values every ${PERIOD_MS / 1000} s, history on ` +
      `(${ENGINE}), ${AGENTS} snmpd; ${os.cpus().length} cores, load average ${load.toFixed(1)} at the start ` +
      `and ${loadAfter.toFixed(1)} at the end of ${elapsedS.toFixed(0)} s measured, Node ${process.version}`,
  );
  console.log(
    `Stored ${DEVICES} devices in ${storeS.toFixed(1)} s; all collecting ${startS.toFixed(1)} s after the app ` +
      `started (${startCpuS.toFixed(1)} CPU s)`,
  );
  printTable(
    ['measure', 'value'],
    [
      ['values read / s', Math.round(rate('valuesRead'))],
      ['  of them not good', after.notGood - before.notGood],
      ['polls / s', rate('reads')],
      ['failed polls', after.failedReads - before.failedReads],
      ['history rows written / s', Math.round(written / elapsedS)],
      ['history values dropped', after.history.dropped - before.history.dropped],
      ['history queue at the end', after.history.queued],
      ['service CPU seconds', cpuS],
      ['service CPU % of one core', (cpuS / elapsedS) * 100],
      ['service CPU µs per value read', (cpuS / (after.valuesRead - before.valuesRead)) * 1e6],
      ...agentCpuS.map((s, i) => [`snmpd ${i + 1} CPU % of one core`, (s / elapsedS) * 100] as const),
      ...(backendCpu.size === 0
        ? []
        : ([
            [`PostgreSQL backends (${backendCpu.size} seen) CPU % of one core`, (backendCpuS / elapsedS) * 100],
            [
              '  µs per value read, service + backends',
              ((cpuS + backendCpuS) / (after.valuesRead - before.valuesRead)) * 1e6,
            ],
          ] as const)),
      ['RSS MiB, median of the window', median([...rss].sort((a, b) => a - b))],
      ['RSS MiB, max', Math.max(...rss)],
      ['after a GC: RSS MiB', memory.rss / MiB],
      ['  heap used MiB', memory.heapUsed / MiB],
      ['  heap total MiB', memory.heapTotal / MiB],
      [
        '  external MiB (of it array buffers)',
        `${(memory.external / MiB).toFixed(1)} (${(memory.arrayBuffers / MiB).toFixed(1)})`,
      ],
      ['  RSS KiB per device', (memory.rss * 1024) / MiB / DEVICES],
      ['  heap used KiB per device', (memory.heapUsed * 1024) / MiB / DEVICES],
      ...spaces.map(
        (space) =>
          [
            `  ${space.space_name} MiB, used of size`,
            `${(space.space_used_size / MiB).toFixed(1)} of ${(space.space_size / MiB).toFixed(1)}`,
          ] as const,
      ),
    ],
  );
  const count = answer.buckets?.length ?? answer.points?.length ?? 0;
  console.log(`\nGET 30 days of one datapoint (${count} buckets of ${answer.step / 1000} s), ${QUERY_RUNS} runs, ms:`);
  printTable(['median', 'p90', 'p99'], [[median(samples), percentile(samples, 90), percentile(samples, 99)]]);
}

await main();
