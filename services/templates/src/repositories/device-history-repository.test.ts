import { beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '@triad/db';
import { describeEachDatabase } from '@triad/db/testing';
import { TEMPLATES_MIGRATION_TABLE, templatesMigrations } from '../migrations/index.js';
import type { HistoryValue } from '../model/device-history.js';
import { HistoryWriter } from '../devices/history-writer.js';
import { HistorySweeper } from '../devices/history-sweeper.js';
import { DeviceHistoryRepository } from './device-history-repository.js';
import type { TemplatesDatabase } from './templates-tables.js';

const T0 = Date.UTC(2026, 11, 1, 12, 0, 0);
const silent = { warn: () => {}, info: () => {} };

function value(datapointId: string, at: number, v: number | null, text: string | null = null): HistoryValue {
  return { deviceId: 'dev-1', setId: 'system', datapointId, row: '', at, value: v, text };
}

describeEachDatabase<TemplatesDatabase>('device history repository', (getDb) => {
  let repository: DeviceHistoryRepository;
  beforeAll(async () => {
    await migrateToLatest(getDb(), { migrations: templatesMigrations, tableName: TEMPLATES_MIGRATION_TABLE });
    repository = new DeviceHistoryRepository(getDb());
  });

  describe('writes and reads', () => {
    beforeAll(async () => {
      // Two values a minute for 10 minutes: 0..19; a string series beside it.
      const values = Array.from({ length: 20 }, (_, i) => value('temp', T0 + i * 30_000, i));
      values.push(
        value('label', T0, null, 'idle'),
        value('label', T0 + 1000, null, 'busy'),
        value('temp', T0 + 5, null),
      );
      await repository.write(values);
    });

    it('answers raw values oldest first, strings as text and bad values as nulls, within from..to', async () => {
      const temp = (await repository.seriesId({ deviceId: 'dev-1', setId: 'system', datapointId: 'temp', row: '' }))!;
      const points = await repository.points(temp, T0, T0 + 60_000, 100);
      expect(points).toEqual([
        { at: T0, value: 0, text: null },
        { at: T0 + 5, value: null, text: null },
        { at: T0 + 30_000, value: 1, text: null },
        { at: T0 + 60_000, value: 2, text: null },
      ]);
      const label = (await repository.seriesId({ deviceId: 'dev-1', setId: 'system', datapointId: 'label', row: '' }))!;
      expect((await repository.points(label, T0, T0 + 10_000, 100)).map((p) => p.text)).toEqual(['idle', 'busy']);
      expect(await repository.seriesId({ deviceId: 'dev-1', setId: 'system', datapointId: 'nope', row: '' })).toBe(
        undefined,
      );
    });

    it('buckets raw values and minute rows alike: min, max, avg and count per step', async () => {
      const temp = (await repository.seriesId({ deviceId: 'dev-1', setId: 'system', datapointId: 'temp', row: '' }))!;
      const fromRaw = await repository.buckets(temp, 'raw', T0, T0 + 600_000, 300_000);
      const fromMinute = await repository.buckets(temp, 'minute', T0, T0 + 600_000, 300_000);
      const expected = [
        { at: T0, min: 0, max: 9, avg: 4.5, count: 10 },
        { at: T0 + 300_000, min: 10, max: 19, avg: 14.5, count: 10 },
      ];
      expect(fromRaw).toEqual(expected);
      expect(fromMinute).toEqual(expected);
    });

    it('adds a later batch of the same minute to its min, max, sum and count', async () => {
      await repository.write([value('temp', T0 + 59_000, -5), value('temp', T0 + 58_000, 50)]);
      const temp = (await repository.seriesId({ deviceId: 'dev-1', setId: 'system', datapointId: 'temp', row: '' }))!;
      const [first] = await repository.buckets(temp, 'minute', T0, T0, 60_000);
      expect(first).toEqual({ at: T0, min: -5, max: 50, avg: (0 + 1 - 5 + 50) / 4, count: 4 });
    });
  });

  it('writes a large batch in pieces of every size: each row once, a repeated millisecond replaced', async () => {
    // 3 devices x 131 table rows x 2 times = 786 values (pieces 512+256+16+2 on SQLite), plus a
    // value repeated at the same millisecond and a series 10 days later (the string-key fallback).
    const batch: HistoryValue[] = [];
    for (const deviceId of ['big-1', 'big-2', 'big-3'])
      for (let row = 0; row < 131; row++)
        for (const at of [T0, T0 + 10_000])
          batch.push({
            deviceId,
            setId: 'ifTable',
            datapointId: 'ifInOctets',
            row: String(row),
            at,
            value: row,
            text: null,
          });
    batch.push(
      { deviceId: 'big-1', setId: 'ifTable', datapointId: 'ifInOctets', row: '7', at: T0, value: 1e9, text: null },
      {
        deviceId: 'big-1',
        setId: 'ifTable',
        datapointId: 'ifDescr',
        row: '7',
        at: T0 + 864e6,
        value: null,
        text: 'old',
      },
    );
    await repository.write(batch);
    const key = (deviceId: string, row: string, datapointId = 'ifInOctets') =>
      repository.seriesId({ deviceId, setId: 'ifTable', datapointId, row });
    const seven = (await key('big-1', '7'))!;
    expect(await repository.points(seven, T0, T0 + 10_000, 10)).toEqual([
      { at: T0, value: 1e9, text: null },
      { at: T0 + 10_000, value: 7, text: null },
    ]);
    expect(await repository.buckets(seven, 'minute', T0, T0, 60_000)).toEqual([
      { at: T0, min: 7, max: 1e9, avg: (7 + 7 + 1e9) / 3, count: 3 },
    ]);
    const last = (await key('big-3', '130'))!;
    expect((await repository.points(last, T0, T0 + 10_000, 10)).map((p) => p.value)).toEqual([130, 130]);
    const old = (await key('big-1', '7', 'ifDescr'))!;
    expect(await repository.points(old, T0 + 864e6, T0 + 864e6, 10)).toEqual([
      { at: T0 + 864e6, value: null, text: 'old' },
    ]);
    const counted = await getDb()
      .db.selectFrom('device_history_raw')
      .innerJoin('device_history_series', 'device_history_series.id', 'device_history_raw.series_id')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('device_history_series.device_id', 'like', 'big-%')
      .executeTakeFirstOrThrow();
    expect(Number(counted.n)).toBe(3 * 131 * 2 + 1);
  });

  it('answers buckets of whole hours from the hour rows with the min, max and avg of their values', async () => {
    const start = Math.floor(T0 / 3_600_000) * 3_600_000 + 5 * 3_600_000;
    // Every 10 min for 3 hours, values 0..17, written in two batches (the second adds into the rows).
    const hourly = Array.from({ length: 18 }, (_, i) => value('hourly', start + i * 600_000, i));
    await repository.write(hourly.slice(0, 7));
    await repository.write(hourly.slice(7));
    const id = (await repository.seriesId({ deviceId: 'dev-1', setId: 'system', datapointId: 'hourly', row: '' }))!;
    expect(await repository.buckets(id, 'minute', start, start + 3 * 3_600_000 - 1, 3_600_000)).toEqual([
      { at: start, min: 0, max: 5, avg: 2.5, count: 6 },
      { at: start + 3_600_000, min: 6, max: 11, avg: 8.5, count: 6 },
      { at: start + 7_200_000, min: 12, max: 17, avg: 14.5, count: 6 },
    ]);
  });

  it('sweeps rows past their retention in bounded batches', async () => {
    const old = Array.from({ length: 30 }, (_, i) => ({ ...value('old', T0 - 86_400_000 - (i + 1) * 60_000, i) }));
    await repository.write(old);
    const sweeper = new HistorySweeper({
      repository,
      rawRetentionMs: 3_600_000,
      minuteRetentionMs: 86_400_000,
      intervalMs: 60_000,
      batchSize: 7,
      log: silent,
      now: () => T0,
    });
    // 30 raw and 30 minute rows of "old" and its hour rows, in batches of at most 7 per table.
    const hours = new Set(old.map((v) => Math.floor(v.at / 3_600_000))).size;
    expect(hours).toBeGreaterThan(0);
    expect(await sweeper.sweep()).toBe(60 + hours);
    const id = (await repository.seriesId({ deviceId: 'dev-1', setId: 'system', datapointId: 'old', row: '' }))!;
    expect(await repository.points(id, 0, T0, 100)).toEqual([]);
    expect(await repository.buckets(id, 'minute', 0, T0, 60_000)).toEqual([]);
    expect(await repository.buckets(id, 'minute', 0, T0, 3_600_000)).toEqual([]);
    const temp = (await repository.seriesId({ deviceId: 'dev-1', setId: 'system', datapointId: 'temp', row: '' }))!;
    expect((await repository.points(temp, T0, T0 + 600_000, 100)).length).toBeGreaterThan(0);
  });

  it('a closed writer has written every value it accepted: a new repository reads them', async () => {
    const writer = new HistoryWriter({ repository, maxQueued: 1000, flushMs: 60_000, batchSize: 100, log: silent });
    const results = Array.from({ length: 250 }, (_, i) => ({
      origin: 'o',
      datapointSetId: 'system',
      datapointId: 'count',
      value: i % 2 === 0 ? i : i % 3 === 0,
      rawValue: i,
      quality: 'good',
      timestamp: T0 + i * 1000,
    }));
    expect(writer.record('dev-2', results)).toBe(250);
    await writer.close();
    expect(writer.stats).toMatchObject({ written: 250, dropped: 0, queued: 0 });
    const fresh = new DeviceHistoryRepository(getDb());
    const id = (await fresh.seriesId({ deviceId: 'dev-2', setId: 'system', datapointId: 'count', row: '' }))!;
    const points = await fresh.points(id, T0, T0 + 250_000, 1000);
    expect(points).toHaveLength(250);
    expect(points[3]).toEqual({ at: T0 + 3000, value: 1, text: null });
    expect(points[5]).toEqual({ at: T0 + 5000, value: 0, text: null });
  });

  it('drops and counts values arriving at a full queue, never waiting', () => {
    const writer = new HistoryWriter({ repository, maxQueued: 100, flushMs: 60_000, batchSize: 1000, log: silent });
    const results = Array.from({ length: 150 }, (_, i) => ({
      origin: 'o',
      datapointSetId: 'system',
      datapointId: 'x',
      value: i,
      rawValue: i,
      quality: 'good',
      timestamp: T0 + i,
    }));
    expect(writer.record('dev-3', results)).toBe(100);
    expect(writer.stats).toMatchObject({ queued: 100, dropped: 50 });
    return writer.close();
  });
});
