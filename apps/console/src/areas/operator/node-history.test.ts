import { describe, expect, it } from 'vitest';
import { rangeBounds } from '../../shell/history-range.js';
import {
  chartSeriesNames,
  formatBytes,
  formatValue,
  NODE_CHARTS,
  NODE_RANGES,
  perSecond,
  seriesLabel,
} from './node-history.js';

const NOW = 1_764_133_200_000;

describe('NODE_RANGES', () => {
  it('offers 1 h, 24 h and 30 d, each ending at now', () => {
    expect(NODE_RANGES.map((r) => rangeBounds(r, NOW))).toEqual([
      { from: NOW - 3_600_000, to: NOW },
      { from: NOW - 86_400_000, to: NOW },
      { from: NOW - 2_592_000_000, to: NOW },
    ]);
  });
});

describe('chartSeriesNames', () => {
  const names = [
    'erlang_vm_process_limit',
    'erlang_vm_memory_bytes_total{kind="system"}',
    'erlang_vm_process_count',
    'erlang_vm_memory_bytes_total{kind="processes"}',
    'erlang_vm_memory_system_bytes_total{usage="code"}',
    'erlang_vm_statistics_reductions_total',
  ];
  it('picks each chart its series, sorted, and nothing else', () => {
    expect(Object.fromEntries(NODE_CHARTS.map((c) => [c.id, chartSeriesNames(c, names)]))).toEqual({
      processes: ['erlang_vm_process_count'],
      memory: ['erlang_vm_memory_bytes_total{kind="processes"}', 'erlang_vm_memory_bytes_total{kind="system"}'],
      'run-queue': [],
      reductions: ['erlang_vm_statistics_reductions_total'],
    });
  });
});

describe('seriesLabel', () => {
  it('shows the label values of a labelled series and the name of a plain one', () => {
    expect(seriesLabel('erlang_vm_memory_bytes_total{kind="system"}')).toBe('system');
    expect(seriesLabel('x{a="1",b="q\\"x"}')).toBe('1, q\\"x');
    expect(seriesLabel('erlang_vm_process_count')).toBe('erlang_vm_process_count');
  });
});

describe('perSecond', () => {
  it('divides each increase by the seconds between the points and drops counter resets', () => {
    expect(
      perSecond([
        [0, 100],
        [10_000, 1100],
        [20_000, 50],
        [25_000, 550],
      ]),
    ).toEqual([
      [10_000, 100],
      [25_000, 100],
    ]);
  });
  it('gives nothing for fewer than two points', () => {
    expect(perSecond([[0, 1]])).toEqual([]);
  });
});

describe('formatValue', () => {
  it('scales bytes and keeps counts readable', () => {
    expect(formatBytes(900)).toBe('900 B');
    expect(formatBytes(5 * 1024 * 1024 + 512 * 1024)).toBe('5.5 MiB');
    expect(formatValue(12345, 'count')).toBe('12,345');
    expect(formatValue(2.345, 'count')).toBe('2.3');
    expect(formatValue(2048, 'bytes')).toBe('2.0 KiB');
  });
});
