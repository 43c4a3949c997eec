import { describe, expect, it } from 'vitest';
import type { Collector, MonitoredNode } from './collector.js';
import { CollectorGroup } from './collector-group.js';

const node: MonitoredNode = { id: 'n1', name: 'a@host' };

function member(log: string[], name: string, fail = false, plugin = 'p'): Collector {
  return {
    plugin,
    defaultOn: true,
    intervalMs: name === 'first' ? 100 : 999,
    collect: () => {
      log.push(`${name}.collect`);
      return fail ? Promise.reject(new Error(`${name} failed`)) : Promise.resolve();
    },
    stop: () => {
      log.push(`${name}.stop`);
      return Promise.resolve();
    },
    released: () => log.push(`${name}.released`),
  };
}

describe('CollectorGroup', () => {
  it('runs every member in order at the first one interval, even after a failure, then throws it', async () => {
    const log: string[] = [];
    const group = new CollectorGroup([member(log, 'first', true), member(log, 'second')]);
    expect(group.intervalMs).toBe(100);
    await expect(group.collect(node)).rejects.toThrow('first failed');
    expect(log).toEqual(['first.collect', 'second.collect']);
    await group.stop(node);
    await group.paused(node);
    group.released(node);
    expect(log.slice(2)).toEqual(['first.stop', 'second.stop', 'first.released', 'second.released']);
  });

  it('refuses members of different plugins', () => {
    expect(() => new CollectorGroup([member([], 'first'), member([], 'other', false, 'q')])).toThrow(/one plugin/);
  });
});
