/**
 * CPU of `DeviceHistoryRepository.write` per value, in process (`process.cpuUsage`, the SQLite
 * engine included; PostgreSQL's server is another process): 5,000 devices x 20 values in batches
 * of `HISTORY_BATCH_SIZE` (the service's batch), one round to create the series, then BENCH_WRITE_ROUNDS rounds
 * 10 s apart. `BENCH_WRITE_REPOSITORY=<file>` measures another implementation of the repository
 * (an older commit's, for before/after). Not run by `npm run bench` (no `-bench` suffix).
 * Run: `node --conditions=source --import tsx bench/device-history-write-cpu.ts [sqlite|postgres]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type Database } from '@triad/db';
import {
  HISTORY_BATCH_SIZE,
  templatesMigrations,
  TEMPLATES_MIGRATION_TABLE,
  type TemplatesDatabase,
} from '@triad/templates-service';

const ROUNDS = Number(process.env['BENCH_WRITE_ROUNDS'] ?? 5);
const DEVICES = 5_000;
const BATCH = HISTORY_BATCH_SIZE;
const engine = process.argv[2] === 'postgres' ? 'postgres' : 'sqlite';
const file =
  process.env['BENCH_WRITE_REPOSITORY'] ?? '../services/templates/src/repositories/device-history-repository.js';
const { DeviceHistoryRepository } = (await import(file)) as {
  DeviceHistoryRepository: new (database: Database<TemplatesDatabase>) => {
    write(values: readonly object[]): Promise<void>;
  };
};

const dir = mkdtempSync(path.join(os.tmpdir(), 'triad-history-write-'));
const url = process.env['TRIAD_BENCH_DATABASE_URL'] || process.env['TRIAD_TEST_DATABASE_URL'];
const schema = `history_write_cpu_${process.pid}`;
if (engine === 'postgres' && !url) throw new Error('postgres needs TRIAD_TEST_DATABASE_URL');
const admin = engine === 'postgres' ? openDatabase({ url: url! }) : undefined;
if (admin) await sql`create schema ${sql.id(schema)}`.execute(admin.db);
const database =
  engine === 'postgres'
    ? openDatabase<TemplatesDatabase>({ url: url!, schema })
    : openDatabase<TemplatesDatabase>({ sqliteFile: path.join(dir, 'h.sqlite') });
await migrateToLatest(database, { migrations: templatesMigrations, tableName: TEMPLATES_MIGRATION_TABLE });
const repository = new DeviceHistoryRepository(database);
const t0 = Date.UTC(2026, 11, 1);
const round = async (r: number) => {
  const values = [];
  for (let d = 0; d < DEVICES; d++)
    for (let p = 0; p < 20; p++)
      values.push({
        deviceId: `device-${d}`,
        setId: 'device',
        datapointId: `p${p}`,
        row: '',
        at: t0 + r * 10_000 + d,
        value: p < 3 ? null : (d * p + r) % 1000,
        text: p < 3 ? `text ${p}` : null,
      });
  const start = process.cpuUsage();
  for (let i = 0; i < values.length; i += BATCH) await repository.write(values.slice(i, i + BATCH));
  const used = process.cpuUsage(start);
  return (used.user + used.system) / values.length;
};
await round(0);
const perValue: number[] = [];
for (let r = 1; r <= ROUNDS; r++) perValue.push(await round(r));
perValue.sort((a, b) => a - b);
const load = os.loadavg()[0]!.toFixed(1);
console.log(
  `${engine} ${path.basename(file)}: CPU µs per value, median of ${ROUNDS} rounds of ${DEVICES * 20}: ` +
    `${perValue[Math.floor(ROUNDS / 2)]!.toFixed(2)} (min ${perValue[0]!.toFixed(2)}); load ${load}`,
);
await database.close();
if (admin) {
  await sql`drop schema ${sql.id(schema)} cascade`.execute(admin.db);
  await admin.close();
}
rmSync(dir, { recursive: true, force: true });
