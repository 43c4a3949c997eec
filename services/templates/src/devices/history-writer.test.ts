import { beforeAll, expect, it } from 'vitest';
import { migrateToLatest } from '@triad/db';
import { describeEachDatabase } from '@triad/db/testing';
import type { DatapointResult } from '@triad/device-templates';
import { TEMPLATES_MIGRATION_TABLE, templatesMigrations } from '../migrations/index.js';
import { DeviceHistoryRepository } from '../repositories/device-history-repository.js';
import type { TemplatesDatabase } from '../repositories/templates-tables.js';
import { HistoryWriter } from './history-writer.js';

const T0 = Date.UTC(2026, 11, 2, 8, 0, 0);
const MINUTE = 60_000;
const silent = { warn: () => {}, info: () => {} };

function result(datapointId: string, value: unknown, at: number, quality = 'good'): DatapointResult {
  return { origin: 'o', datapointSetId: 'system', datapointId, value, rawValue: value, quality, timestamp: at };
}

/**
 * A device polled every 10 s as the supervisor reports it: the changes of each poll and every
 * current value. `read(at)` says what the poll read; a value equal to the current one is no change.
 */
async function pollDevice(
  writer: HistoryWriter,
  clock: { now: number },
  deviceId: string,
  from: number,
  to: number,
  read: (at: number) => Record<string, { value: unknown; quality?: string }>,
): Promise<void> {
  const current = new Map<string, DatapointResult>();
  for (let at = from; at < to; at += 10_000) {
    clock.now = at;
    const changed: DatapointResult[] = [];
    for (const [id, { value, quality = 'good' }] of Object.entries(read(at))) {
      const last = current.get(id);
      if (last !== undefined && last.value === value && last.quality === quality) continue;
      const next = result(id, value, at, quality);
      current.set(id, next);
      changed.push(next);
    }
    writer.collected(deviceId, changed, current.values());
  }
  await writer.flush();
}

describeEachDatabase<TemplatesDatabase>('device history heartbeat', (getDb) => {
  let repository: DeviceHistoryRepository;
  beforeAll(async () => {
    await migrateToLatest(getDb(), { migrations: templatesMigrations, tableName: TEMPLATES_MIGRATION_TABLE });
    repository = new DeviceHistoryRepository(getDb());
  });

  const series = async (deviceId: string, datapointId: string) =>
    (await repository.seriesId({ deviceId, setId: 'system', datapointId, row: '' }))!;

  it('gives a flat value a row in every minute it was collected, and a down device a hole', async () => {
    const clock = { now: T0 };
    const writer = new HistoryWriter({
      repository,
      maxQueued: 10_000,
      flushMs: 60_000,
      batchSize: 1000,
      log: silent,
      now: () => clock.now,
    });
    // Minutes 0-4 up with a flat 21.5, 5-6 down (reads bad), 7-9 up again with 22.
    await pollDevice(writer, clock, 'flat-1', T0, T0 + 10 * MINUTE, (at) => {
      const minute = Math.floor((at - T0) / MINUTE);
      if (minute === 5 || minute === 6) return { temp: { value: null, quality: 'bad' }, name: { value: null } };
      return { temp: { value: minute < 5 ? 21.5 : 22 }, name: { value: 'pump' } };
    });
    const temp = await series('flat-1', 'temp');
    const buckets = await repository.buckets(temp, 'minute', T0, T0 + 10 * MINUTE, MINUTE);
    expect(buckets.map((b) => (b.at - T0) / MINUTE)).toEqual([0, 1, 2, 3, 4, 7, 8, 9]);
    expect(buckets.every((b) => b.count === 1)).toBe(true);
    expect(buckets.map((b) => b.avg)).toEqual([21.5, 21.5, 21.5, 21.5, 21.5, 22, 22, 22]);
    // Raw: the change at T0, one heartbeat at the first poll of minutes 1-4, the bad value at
    // minute 5 (a null: the hole), the change at minute 7, heartbeats at minutes 8 and 9.
    const points = await repository.points(temp, T0, T0 + 10 * MINUTE, 1000);
    expect(points.map((p) => [(p.at - T0) / MINUTE, p.value])).toEqual([
      [0, 21.5],
      [1, 21.5],
      [2, 21.5],
      [3, 21.5],
      [4, 21.5],
      [5, null],
      [7, 22],
      [8, 22],
      [9, 22],
    ]);
    // Strings are kept by the heartbeat as well (raw points), with no beat while they are null.
    const name = await repository.points(await series('flat-1', 'name'), T0, T0 + 10 * MINUTE, 1000);
    expect(name.map((p) => (p.at - T0) / MINUTE)).toEqual([0, 1, 2, 3, 4, 5, 7, 8, 9]);
    expect(writer.stats).toMatchObject({ written: 18, heartbeats: 12, dropped: 0 });
    await writer.close();
  });

  it('writes no heartbeat beside a value that changed at the same poll, nor twice in a minute', async () => {
    const clock = { now: T0 };
    const writer = new HistoryWriter({
      repository,
      maxQueued: 10_000,
      flushMs: 60_000,
      batchSize: 1000,
      log: silent,
      now: () => clock.now,
    });
    // `count` changes every poll, `flat` never: 3 minutes of polls every 10 s.
    await pollDevice(writer, clock, 'busy-1', T0, T0 + 3 * MINUTE, (at) => ({
      count: { value: (at - T0) / 10_000 },
      flat: { value: 7 },
    }));
    const count = await repository.points(await series('busy-1', 'count'), T0, T0 + 3 * MINUTE, 1000);
    expect(count).toHaveLength(18);
    const flat = await repository.buckets(await series('busy-1', 'flat'), 'minute', T0, T0 + 3 * MINUTE, MINUTE);
    expect(flat.map((b) => [(b.at - T0) / MINUTE, b.count])).toEqual([
      [0, 1],
      [1, 1],
      [2, 1],
    ]);
    expect(writer.stats.heartbeats).toBe(2);
    await writer.close();
  });
});
