import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Database } from '@triad/db';
import { TEMPLATES_MIGRATION_TABLE, templatesMigrations } from '../migrations/index.js';
import type { HistoryValue } from '../model/device-history.js';
import { HistoryWriter } from '../devices/history-writer.js';
import { DeviceHistoryRepository } from './device-history-repository.js';
import { HistoryWriteThread } from './history-write-thread.js';
import type { TemplatesDatabase } from './templates-tables.js';

const T0 = Date.UTC(2026, 11, 2, 8, 0, 0);
const warnings: object[] = [];
const log = { warn: (object: object) => void warnings.push(object) };

function value(deviceId: string, datapointId: string, at: number, v: number | null, text: string | null = null) {
  return { deviceId, setId: 'system', datapointId, row: '', at, value: v, text } satisfies HistoryValue;
}

/** 2 devices x 3 datapoints x 200 times, a string and a bad value among them, one millisecond twice. */
function batch(deviceIds: readonly string[]): HistoryValue[] {
  const values: HistoryValue[] = [];
  for (const deviceId of deviceIds)
    for (let i = 0; i < 200; i++) {
      values.push(value(deviceId, 'temp', T0 + i * 1000, 20 + (i % 7)));
      values.push(value(deviceId, 'state', T0 + i * 1000, null, i % 2 === 0 ? 'run' : 'idle'));
      values.push(value(deviceId, 'flow', T0 + i * 1000, i === 13 ? null : i / 4));
    }
  values.push(value(deviceIds[0]!, 'temp', T0 + 5000, -1));
  return values;
}

describe('history write thread (SQLite file)', () => {
  let directory: string;
  let database: Database<TemplatesDatabase>;
  let repository: DeviceHistoryRepository;
  let thread: HistoryWriteThread;

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'triad-history-thread-'));
    database = openDatabase<TemplatesDatabase>({ sqliteFile: path.join(directory, 'templates.sqlite') });
    await migrateToLatest(database, { migrations: templatesMigrations, tableName: TEMPLATES_MIGRATION_TABLE });
    repository = new DeviceHistoryRepository(database);
    thread = new HistoryWriteThread({ file: database.location, repository, log });
  });
  afterAll(async () => {
    await thread.close();
    await database.close();
    await rm(directory, { recursive: true, force: true });
  });

  async function stored(deviceId: string) {
    const out: Record<string, unknown> = {};
    for (const datapointId of ['temp', 'state', 'flow']) {
      const id = (await repository.seriesId({ deviceId, setId: 'system', datapointId, row: '' }))!;
      out[datapointId] = {
        points: await repository.points(id, T0, T0 + 3_600_000, 1000),
        minutes: await repository.buckets(id, 'minute', T0, T0 + 3_600_000, 60_000),
        hours: await repository.buckets(id, 'minute', T0, T0 + 3_600_000, 3_600_000),
      };
    }
    return out;
  }

  it('stores what the repository stores on this thread: raw rows, minutes and hours alike', async () => {
    await thread.write(batch(['by-thread-a', 'by-thread-b']));
    await repository.write(batch(['here-a', 'here-b']));
    const byThread = await stored('by-thread-a');
    expect(byThread).toEqual(await stored('here-a'));
    expect(await stored('by-thread-b')).toEqual(await stored('here-b'));
    const temp = byThread['temp'] as { points: { at: number; value: number }[]; minutes: { count: number }[] };
    expect(temp.points).toHaveLength(200);
    expect(temp.points[5]).toEqual({ at: T0 + 5000, value: -1, text: null });
    // The minutes count every value written, the one repeated at T0 + 5 s too; its raw row is replaced.
    expect(temp.minutes.map((m) => m.count)).toEqual([61, 60, 60, 20]);
    const state = byThread['state'] as { points: { text: string }[] };
    expect(state.points.slice(0, 2).map((p) => p.text)).toEqual(['run', 'idle']);
  });

  it('moves the batch to the worker: its typed arrays are empty here afterwards', async () => {
    const rows = await repository.rowsOf([value('moved', 'temp', T0, 1)]);
    await thread.writeRows(rows);
    expect(rows.at.length).toBe(0);
    const id = (await repository.seriesId({ deviceId: 'moved', setId: 'system', datapointId: 'temp', row: '' }))!;
    expect(await repository.points(id, T0, T0, 10)).toEqual([{ at: T0, value: 1, text: null }]);
  });

  it('rejects a batch the worker cannot write, and HistoryWriter keeps it for the next flush', async () => {
    const writer = new HistoryWriter({ repository: thread, maxQueued: 1000, flushMs: 60_000, batchSize: 100, log });
    await sql`alter table device_history_raw rename to device_history_raw_away`.execute(database.db);
    try {
      writer.record('kept', [
        {
          origin: 'o',
          datapointSetId: 'system',
          datapointId: 'temp',
          value: 7,
          rawValue: 7,
          quality: 'good',
          timestamp: T0,
        },
      ]);
      await writer.flush();
      expect(writer.stats).toMatchObject({ written: 0, failedBatches: 1, queued: 1 });
      expect(String((warnings.at(-1) as { err?: Error }).err?.message)).toContain('no such table: device_history_raw');
    } finally {
      await sql`alter table device_history_raw_away rename to device_history_raw`.execute(database.db);
    }
    await writer.flush();
    expect(writer.stats).toMatchObject({ written: 1, failedBatches: 1, queued: 0 });
    const id = (await repository.seriesId({ deviceId: 'kept', setId: 'system', datapointId: 'temp', row: '' }))!;
    expect(await repository.points(id, T0, T0, 10)).toEqual([{ at: T0, value: 7, text: null }]);
  });

  it('after close the worker has exited and writes are refused', async () => {
    const other = new HistoryWriteThread({ file: database.location, repository, log });
    await other.write([value('closing', 'temp', T0, 3)]);
    await other.close();
    await expect(other.write([value('closing', 'temp', T0 + 1, 4)])).rejects.toThrow('device history thread closed');
    const id = (await repository.seriesId({ deviceId: 'closing', setId: 'system', datapointId: 'temp', row: '' }))!;
    expect(await repository.points(id, T0, T0 + 1, 10)).toEqual([{ at: T0, value: 3, text: null }]);
  });
});
