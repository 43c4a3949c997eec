import { HISTORY_RANGES, type HistoryRange } from '../../shell/history-range.js';
import type { TimedValue } from '../../shell/timed-series.js';

/** The ranges of the node page's picker, shortest first; the first is the default. */
export const NODE_RANGES: readonly HistoryRange[] = HISTORY_RANGES.filter((r) => r.id !== '7d');

/** A chart of the node page: which series it draws and how. */
export interface ChartSpec {
  readonly id: string;
  /** The chart's accessible name and heading. */
  readonly title: string;
  /** `bytes` values are shown in KiB/MiB/GiB, `count` as plain numbers. */
  readonly unit: 'bytes' | 'count';
  /** The series names of `GET /api/metrics/names` this chart draws. */
  readonly matches: (name: string) => boolean;
  /** Draw the change per second instead of the value (for counters). */
  readonly rate?: boolean;
}

/** Processes, memory by kind, run queue, reductions. */
export const NODE_CHARTS: readonly ChartSpec[] = [
  { id: 'processes', title: 'Processes', unit: 'count', matches: (n) => n === 'erlang_vm_process_count' },
  {
    id: 'memory',
    title: 'Memory by kind',
    unit: 'bytes',
    matches: (n) => n.startsWith('erlang_vm_memory_bytes_total{'),
  },
  {
    id: 'run-queue',
    title: 'Run queue',
    unit: 'count',
    matches: (n) => n === 'erlang_vm_statistics_run_queues_length_total',
  },
  {
    id: 'reductions',
    title: 'Reductions per second',
    unit: 'count',
    matches: (n) => n === 'erlang_vm_statistics_reductions_total',
    rate: true,
  },
];

/** The names `chart` draws among `names`, sorted. */
export function chartSeriesNames(chart: ChartSpec, names: readonly string[]): string[] {
  return names.filter((n) => chart.matches(n)).sort();
}

/** A series' short label: the label values of `x{kind="system"}` (`system`), else the name. */
export function seriesLabel(name: string): string {
  const labels = /\{(.*)\}$/.exec(name)?.[1];
  if (!labels) return name;
  const values = [...labels.matchAll(/="((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? '');
  return values.length > 0 ? values.join(', ') : name;
}

/**
 * A counter's change per second between consecutive points, timed at the later point; a drop (the
 * node restarted) gives no point.
 */
export function perSecond(points: readonly TimedValue[]): TimedValue[] {
  const out: TimedValue[] = [];
  for (let i = 1; i < points.length; i++) {
    const [t0, v0] = points[i - 1] as TimedValue;
    const [t1, v1] = points[i] as TimedValue;
    if (t1 > t0 && v1 >= v0) out.push([t1, ((v1 - v0) * 1000) / (t1 - t0)]);
  }
  return out;
}

/** `12.5 MiB`, `900 B`: bytes a person reads at a glance. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? String(Math.round(value)) : value.toFixed(1)} ${units[unit] ?? 'B'}`;
}

/** A value of a chart in its unit: bytes scaled, counts with at most one decimal. */
export function formatValue(value: number, unit: ChartSpec['unit']): string {
  if (unit === 'bytes') return formatBytes(value);
  return Number.isInteger(value)
    ? value.toLocaleString('en')
    : value.toLocaleString('en', { maximumFractionDigits: 1 });
}
