import { beforeAll, describe, expect, it, vi } from 'vitest';
import { migrateToLatest } from '@triad/db';
import { describeEachDatabase } from '@triad/db/testing';
import type { DeviceState } from '@triad/device-drivers';
import type { DatapointResult } from '@triad/device-templates';
import { TEMPLATES_MIGRATION_TABLE, templatesMigrations } from '../migrations/index.js';
import { DeviceHistoryRepository } from '../repositories/device-history-repository.js';
import type { TemplatesDatabase } from '../repositories/templates-tables.js';
import { HEARTBEAT_AT_MS, HistoryHeartbeat } from './history-heartbeat.js';
import { HistoryWriter } from './history-writer.js';

const T0 = Date.UTC(2026, 11, 2, 8, 0, 0);
const MINUTE = 60_000;
const silent = { warn: () => {}, info: () => {} };

function result(datapointId: string, value: unknown, at: number, quality = 'good'): DatapointResult {
  return { origin: 'o', datapointSetId: 'system', datapointId, value, rawValue: value, quality, timestamp: at };
}

/**
 * One device as the supervisor and the collection see it: `emit` hands values to the history (as
 * the collection does with the pipeline's output) and keeps them as the current ones.
 */
class FakeDevice {
  state: DeviceState = 'up';
  readonly current = new Map<string, DatapointResult>();
  constructor(
    readonly id: string,
    readonly writer: HistoryWriter,
  ) {}

  emit(...results: DatapointResult[]): void {
    for (const r of results) this.current.set(r.datapointId, r);
    this.writer.record(this.id, results);
  }

  get values(): Iterable<DatapointResult> {
    return this.current.values();
  }
}

describeEachDatabase<TemplatesDatabase>('device history heartbeat', (getDb) => {
  let repository: DeviceHistoryRepository;
  beforeAll(async () => {
    await migrateToLatest(getDb(), { migrations: templatesMigrations, tableName: TEMPLATES_MIGRATION_TABLE });
    repository = new DeviceHistoryRepository(getDb());
  });

  const series = async (deviceId: string, datapointId: string) =>
    (await repository.seriesId({ deviceId, setId: 'system', datapointId, row: '' }))!;
  const newWriter = () =>
    new HistoryWriter({ repository, maxQueued: 10_000, flushMs: 60_000, batchSize: 1000, log: silent });

  it('gives a pushed value that holds a row in every minute, and a down device or a bad value a hole', async () => {
    const writer = newWriter();
    const device = new FakeDevice('pushed-1', writer);
    const heartbeat = new HistoryHeartbeat({ devices: () => [device], history: writer });
    const beat = (minute: number) => heartbeat.beat(T0 + minute * MINUTE + HEARTBEAT_AT_MS);
    // Minute 0: one message each (a subscription sends changes only); then nothing changes.
    device.emit(result('temp', 21.5, T0 + 5_000), result('name', 'pump', T0 + 5_000));
    for (let m = 0; m < 5; m++) beat(m);
    // Minutes 5-6: the device is down (its connection lost); 7: back, temp now bad; 8-9: 22.
    device.state = 'down';
    beat(5);
    beat(6);
    device.state = 'up';
    device.emit(result('temp', null, T0 + 7 * MINUTE + 1_000, 'bad'));
    beat(7);
    device.emit(result('temp', 22, T0 + 8 * MINUTE + 1_000));
    beat(8);
    beat(9);
    await writer.close();

    const temp = await series('pushed-1', 'temp');
    const buckets = await repository.buckets(temp, 'minute', T0, T0 + 10 * MINUTE, MINUTE);
    expect(buckets.map((b) => [(b.at - T0) / MINUTE, b.avg, b.count])).toEqual([
      [0, 21.5, 1],
      [1, 21.5, 1],
      [2, 21.5, 1],
      [3, 21.5, 1],
      [4, 21.5, 1],
      [8, 22, 1],
      [9, 22, 1],
    ]);
    const points = await repository.points(temp, T0, T0 + 10 * MINUTE, 1000);
    expect(points.map((p) => [(p.at - T0) / 1000, p.value])).toEqual([
      [5, 21.5],
      [110, 21.5],
      [170, 21.5],
      [230, 21.5],
      [290, 21.5],
      [421, null],
      [481, 22],
      [590, 22],
    ]);
    // Strings too (raw points), while the device is up.
    const name = await repository.points(await series('pushed-1', 'name'), T0, T0 + 10 * MINUTE, 1000);
    expect(name.map((p) => (p.at - T0) / 1000)).toEqual([5, 110, 170, 230, 290, 470, 530, 590]);
    expect(writer.stats).toMatchObject({ written: 16, heartbeats: 12, dropped: 0 });
  });

  it('writes nothing for a value read within the minute: a polled datapoint costs no extra row', async () => {
    const writer = newWriter();
    const device = new FakeDevice('polled-1', writer);
    const heartbeat = new HistoryHeartbeat({ devices: () => [device], history: writer });
    // Polled every 10 s with a flat value: every poll is handed over already.
    for (let m = 0; m < 3; m++) {
      for (let s = 0; s < 60; s += 10) device.emit(result('flat', 7, T0 + m * MINUTE + s * 1000));
      expect(heartbeat.beat(T0 + m * MINUTE + HEARTBEAT_AT_MS)).toBe(0);
    }
    await writer.close();
    expect(writer.stats).toMatchObject({ written: 18, heartbeats: 0 });
    const flat = await repository.buckets(await series('polled-1', 'flat'), 'minute', T0, T0 + 3 * MINUTE, MINUTE);
    expect(flat.map((b) => b.count)).toEqual([6, 6, 6]);
  });
});

describe('history heartbeat timer', () => {
  it('runs on its own late in every minute once started, and no more once stopped', () => {
    let now = T0 + 20_000;
    const beats: number[] = [];
    const heartbeat = new HistoryHeartbeat({
      devices: () => [],
      history: { heartbeat: () => 0 },
      now: () => now,
    });
    const original = heartbeat.beat.bind(heartbeat);
    heartbeat.beat = (at?: number) => {
      beats.push(now);
      return original(at);
    };
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      heartbeat.start();
      now = T0 + HEARTBEAT_AT_MS;
      vi.advanceTimersByTime(HEARTBEAT_AT_MS - 20_000);
      now = T0 + MINUTE + HEARTBEAT_AT_MS;
      vi.advanceTimersByTime(MINUTE);
      heartbeat.stop();
      vi.advanceTimersByTime(5 * MINUTE);
    } finally {
      vi.useRealTimers();
    }
    expect(beats).toEqual([T0 + HEARTBEAT_AT_MS, T0 + MINUTE + HEARTBEAT_AT_MS]);
  });
});
