/**
 * Issue 29's measurements of the device history (decision 0050). Prints numbers, asserts nothing.
 *
 *   npm run bench -- device-history
 *
 * 1. Query. A real database (a SQLite file; PostgreSQL too when `TRIAD_BENCH_DATABASE_URL` or
 *    `TRIAD_TEST_DATABASE_URL` is set, in a fresh schema dropped afterwards) holds 30 days of one
 *    value a minute of 5 datapoints of one device (43,200 minute rows each, written through
 *    `DeviceHistoryRepository.write`, so raw rows too). Timed: 30 days of one datapoint as the API
 *    answers it without a step (minute rows in 30 min buckets: all 43,200 rows aggregated), through
 *    the repository and through `GET /devices/{id}/history` (`app.inject`, JSON included); and the
 *    last hour's raw points. Median, p90 and p99 of 100 runs after 5 warm-ups. The API's own step
 *    for 30 days is whole hours (hour rows); 30 min buckets from minute rows are timed beside it.
 *    `BENCH_HISTORY_WRITES=0` stops after the queries.
 * 2. Writes. 10,000 devices x 20 values every 10 s (2,000 values/s), through `HistoryWriter.record`
 *    and its batched flushes: 6 rounds of 200,000 values (one minute of that load), timestamps 10 s
 *    apart. CPU of this process (`process.cpuUsage`) per round, as % of one core over the 10 s the
 *    round stands for; the first round (creating 200,000 series) apart. On PostgreSQL the server's
 *    own CPU is not in it (another process): the wall time of a round is beside it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type Database } from '@triad/db';
import { createStarterTemplate, type DatapointResult } from '@triad/device-templates';
import {
  buildTemplatesApp,
  DeviceHistoryRepository,
  HISTORY_BATCH_SIZE,
  HistoryWriter,
  loadTemplatesConfig,
  templatesMigrations,
  TEMPLATES_MIGRATION_TABLE,
  type TemplatesDatabase,
} from '@triad/templates-service';
import { median, percentile, printTable } from './bench-utils.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
const RUNS = 100;
const WARMUP = 5;
const DATAPOINTS = 5;
const DEVICES = 10_000;
const VALUES_PER_DEVICE = 20;
const ROUNDS = 6;
const ROUND_MS = 10_000;
const silent = { warn: () => {}, info: () => {} };

async function timed(fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples.sort((a, b) => a - b);
}

const stats = (s: number[]) => [median(s), percentile(s, 90), percentile(s, 99)] as const;

async function query(label: string, database: Database<TemplatesDatabase>): Promise<(string | number)[][]> {
  await migrateToLatest(database, { migrations: templatesMigrations, tableName: TEMPLATES_MIGRATION_TABLE });
  const config = loadTemplatesConfig(
    {},
    { demo: false, logLevel: 'silent', writeAccess: 'open', devicesReadAccess: 'open', collectDevices: false },
  );
  const app = await buildTemplatesApp({ config, database });
  await app.ready();
  try {
    const template = createStarterTemplate('icmp', { templateId: 'Bench Ping' });
    await app.inject({ method: 'POST', url: '/templates', payload: template });
    const created = await app.inject({
      method: 'POST',
      url: '/devices',
      payload: {
        name: 'bench',
        templateId: 'Bench Ping',
        templateVersion: '1.0.0',
        variables: { ICMP_IPAddress: '127.0.0.1' },
      },
    });
    const { id } = created.json<{ id: string }>();
    const repository = new DeviceHistoryRepository(database);
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    const started = Date.now();
    for (let d = 0; d < DATAPOINTS; d++) {
      const datapointId = d === 0 ? 'roundTripTime' : d === 1 ? 'packetLoss' : `other${d}`;
      for (let i = 0; i < 30 * 24 * 60; i += 5_000)
        await repository.write(
          Array.from({ length: Math.min(5_000, 30 * 24 * 60 - i) }, (_, k) => ({
            deviceId: id,
            setId: 'reachability',
            datapointId,
            row: '',
            at: now - (i + k) * MINUTE,
            value: Math.sin((i + k) / 100) * 50 + 50,
            text: null,
          })),
        );
    }
    console.log(`${label}: ${DATAPOINTS} x 43,200 values written in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const seriesId = (await repository.seriesId({
      deviceId: id,
      setId: 'reachability',
      datapointId: 'roundTripTime',
      row: '',
    }))!;
    const from = now - 30 * DAY;
    // 30 min buckets aggregate all 43,200 minute rows; whole hours read the 720 hour rows.
    const buckets = await repository.buckets(seriesId, 'minute', from, now, 1_800_000);
    const core = await timed(() => repository.buckets(seriesId, 'minute', from, now, 1_800_000));
    const hourBuckets = await repository.buckets(seriesId, 'minute', from, now, 3_600_000);
    const hourly = await timed(() => repository.buckets(seriesId, 'minute', from, now, 3_600_000));
    const url = `/devices/${id}/history?set=reachability&datapoint=roundTripTime&from=${from}&to=${now}`;
    const answer = (await app.inject({ method: 'GET', url })).json<{ step: number; buckets: unknown[] }>();
    const http = await timed(() => app.inject({ method: 'GET', url }));
    const rawUrl = `/devices/${id}/history?set=reachability&datapoint=roundTripTime&from=${now - 3_600_000}&to=${now}`;
    const raw = await timed(() => app.inject({ method: 'GET', url: rawUrl }));
    return [
      [`${label}: 30 d, repository, 30 min from minute rows`, buckets.length, ...stats(core)],
      [`${label}: 30 d, repository, 1 h from hour rows`, hourBuckets.length, ...stats(hourly)],
      [`${label}: 30 d, GET (step ${answer.step / MINUTE} min)`, answer.buckets.length, ...stats(http)],
      [`${label}: last hour raw, GET`, 61, ...stats(raw)],
    ];
  } finally {
    await app.close();
  }
}

async function writes(label: string, database: Database<TemplatesDatabase>): Promise<(string | number)[][]> {
  await migrateToLatest(database, { migrations: templatesMigrations, tableName: TEMPLATES_MIGRATION_TABLE });
  const writer = new HistoryWriter({
    repository: new DeviceHistoryRepository(database),
    maxQueued: 1_000_000,
    flushMs: 3_600_000,
    batchSize: HISTORY_BATCH_SIZE,
    log: silent,
  });
  const devices = Array.from({ length: DEVICES }, (_, i) => `device-${i}`);
  const start = Math.floor(Date.now() / MINUTE) * MINUTE - ROUNDS * ROUND_MS;
  const rows: (string | number)[][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const at = start + round * ROUND_MS;
    const cpu = process.cpuUsage();
    const wall = process.hrtime.bigint();
    for (const [d, device] of devices.entries()) {
      const values: DatapointResult[] = [];
      for (let v = 0; v < VALUES_PER_DEVICE; v++)
        values.push({
          origin: device,
          datapointSetId: 'ifTable',
          datapointId: `value${v}`,
          value: (d * v + round) % 1000,
          rawValue: 0,
          quality: 'good',
          timestamp: at + (d % 1000),
        });
      writer.record(device, values);
    }
    await writer.flush();
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    const wallMs = Number(process.hrtime.bigint() - wall) / 1e6;
    rows.push([
      `${label}: round ${round + 1}${round === 0 ? ' (creates series)' : ''}`,
      cpuMs,
      wallMs,
      (cpuMs / ROUND_MS) * 100,
    ]);
  }
  await writer.close();
  const steady = rows.slice(1).map((r) => Number(r[3]));
  rows.push([
    `${label}: rounds 2-${ROUNDS}, mean % of one core`,
    '',
    '',
    steady.reduce((a, b) => a + b, 0) / steady.length,
  ]);
  return rows;
}

async function onEachDatabase(
  run: (label: string, database: Database<TemplatesDatabase>) => Promise<(string | number)[][]>,
): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [];
  const directory = mkdtempSync(path.join(os.tmpdir(), 'triad-device-history-bench-'));
  const sqlite = openDatabase<TemplatesDatabase>({ sqliteFile: path.join(directory, 'bench.sqlite') });
  try {
    rows.push(...(await run('sqlite', sqlite)));
  } finally {
    await sqlite.close();
    rmSync(directory, { recursive: true, force: true });
  }
  const url = process.env.TRIAD_BENCH_DATABASE_URL || process.env.TRIAD_TEST_DATABASE_URL;
  if (!url) {
    console.log('PostgreSQL skipped: set TRIAD_BENCH_DATABASE_URL or TRIAD_TEST_DATABASE_URL to a postgres:// URL');
    return rows;
  }
  const schema = `device_history_bench_${process.pid}`;
  const admin = openDatabase({ url });
  await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  const database = openDatabase<TemplatesDatabase>({ url, schema });
  try {
    rows.push(...(await run('postgres', database)));
  } finally {
    await database.close();
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
    await admin.close();
  }
  return rows;
}

console.log(
  `Device history, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}, Node ${process.version}`,
);
const queries = await onEachDatabase(query);
console.log(`\n30 days of one datapoint (43,200 minute rows); ms over ${RUNS} runs:`);
printTable(['query', 'points', 'median', 'p90', 'p99'], queries);
if (process.env.BENCH_HISTORY_WRITES === '0') process.exit(0);
const written = await onEachDatabase(writes);
console.log(
  `\nWrites: ${DEVICES} devices x ${VALUES_PER_DEVICE} values per ${ROUND_MS / 1000} s ` +
    `(${(DEVICES * VALUES_PER_DEVICE * 1000) / ROUND_MS} values/s):`,
);
printTable(['round', 'CPU ms', 'wall ms', '% of one core'], written);
