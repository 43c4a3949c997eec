import type { DatapointResult } from '@triad/device-templates';
import { describe, expect, it } from 'vitest';
import type { HistoryValue } from '../model/device-history.js';
import { HistoryWriter } from './history-writer.js';

const T0 = Date.UTC(2026, 11, 3);
const silent = { warn: () => undefined };

function results(datapointId: string, count: number): DatapointResult[] {
  return Array.from({ length: count }, (_, i) => ({
    origin: 'o',
    datapointSetId: 'system',
    datapointId,
    value: i,
    rawValue: i,
    quality: 'good',
    timestamp: T0 + i,
  }));
}

/** A repository that keeps every batch it was given, and fails the calls numbered in `failing`. */
function recording(failing: readonly number[] = []) {
  const batches: HistoryValue[][] = [];
  let calls = 0;
  return {
    batches,
    write(values: readonly HistoryValue[]): Promise<void> {
      calls++;
      if (failing.includes(calls)) return Promise.reject(new Error('database away'));
      batches.push([...values]);
      return Promise.resolve();
    },
  };
}

const label = (v: HistoryValue) => `${v.deviceId}/${v.datapointId}/${v.value}@${v.at - T0}`;

describe('HistoryWriter', () => {
  it('writes the values of several calls in order, in batches of at most batchSize', async () => {
    const repository = recording();
    const writer = new HistoryWriter({ repository, maxQueued: 100, flushMs: 60_000, batchSize: 4, log: silent });
    expect(writer.record('d1', results('a', 3))).toBe(3);
    expect(writer.stats).toMatchObject({ queued: 3 });
    // A full batch queued starts a write at once; it takes everything queued so far.
    expect(writer.record('d2', results('b', 6))).toBe(6);
    expect(writer.heartbeat('d1', results('c', 2), T0 + 50_000)).toBe(2);
    // Values count as queued until written: the 9 taken by the write under way, and 2 after them.
    expect(writer.stats).toMatchObject({ queued: 11, written: 0, heartbeats: 2 });
    await writer.close();
    expect(writer.stats).toMatchObject({ queued: 0, written: 11 });
    expect(repository.batches.map((batch) => batch.map(label))).toEqual([
      ['d1/a/0@0', 'd1/a/1@1', 'd1/a/2@2', 'd2/b/0@0'],
      ['d2/b/1@1', 'd2/b/2@2', 'd2/b/3@3', 'd2/b/4@4'],
      ['d2/b/5@5'],
      ['d1/c/0@50000', 'd1/c/1@50000'],
    ]);
    expect(repository.batches[0]![0]).toEqual({
      deviceId: 'd1',
      setId: 'system',
      datapointId: 'a',
      row: '',
      at: T0,
      value: 0,
      text: null,
    });
    expect(writer.stats).toEqual({ queued: 0, written: 11, dropped: 0, failedBatches: 0, heartbeats: 2 });
  });

  it('puts a failed batch and the rest back, in order, and writes them at the next flush', async () => {
    const repository = recording([2]);
    const writer = new HistoryWriter({ repository, maxQueued: 8, flushMs: 60_000, batchSize: 3, log: silent });
    writer.record('d1', results('a', 8));
    // The write started by the record: the first batch is written, the second fails and goes
    // back with the rest; this flush then writes those five.
    await writer.flush();
    expect(writer.stats).toMatchObject({ queued: 0, written: 8, failedBatches: 1, dropped: 0 });
    expect(repository.batches.map((batch) => batch.map(label))).toEqual([
      ['d1/a/0@0', 'd1/a/1@1', 'd1/a/2@2'],
      ['d1/a/3@3', 'd1/a/4@4', 'd1/a/5@5'],
      ['d1/a/6@6', 'd1/a/7@7'],
    ]);
    await writer.close();
  });

  it('keeps only the newest of a failed batch when new values filled the queue meanwhile', async () => {
    let release: () => void = () => undefined;
    const batches: string[][] = [];
    let calls = 0;
    const repository = {
      async write(values: readonly HistoryValue[]): Promise<void> {
        calls++;
        if (calls === 1) {
          await new Promise<void>((resolve) => (release = resolve));
          throw new Error('database away');
        }
        batches.push(values.map(label));
      },
    };
    const writer = new HistoryWriter({ repository, maxQueued: 6, flushMs: 60_000, batchSize: 4, log: silent });
    // A full batch: its write starts at once (and will fail).
    writer.record('d1', results('a', 4));
    const first = writer.flush();
    // While it is being written, 4 more arrive: room for 2 of the 4 back, the oldest 2 dropped.
    writer.record('d2', results('b', 4));
    release();
    await first;
    expect(writer.stats).toMatchObject({ queued: 0, written: 6, dropped: 2, failedBatches: 1 });
    await writer.close();
    expect(batches).toEqual([
      ['d1/a/2@2', 'd1/a/3@3', 'd2/b/0@0', 'd2/b/1@1'],
      ['d2/b/2@2', 'd2/b/3@3'],
    ]);
  });
});
