/** One point of a metric series as `GET /api/metrics/node/{id}` gives it: `[timeMs, value]`. */
export type TimedValue = readonly [number, number];

/** A time range the node page offers for its charts. */
export interface HistoryRange {
  readonly id: '1h' | '24h' | '30d';
  /** What the range button says. */
  readonly label: string;
  readonly ms: number;
}

/** The ranges of the picker, shortest first; the first is the default. */
export const HISTORY_RANGES: readonly HistoryRange[] = [
  { id: '1h', label: '1 h', ms: 3_600_000 },
  { id: '24h', label: '24 h', ms: 86_400_000 },
  { id: '30d', label: '30 d', ms: 30 * 86_400_000 },
];

/** `from` and `to` (ms, inclusive) of `range` ending at `now`, as the metrics API takes them. */
export function rangeBounds(range: HistoryRange, now: number): { readonly from: number; readonly to: number } {
  return { from: now - range.ms, to: now };
}

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

/** Several series on one time axis (seconds, as uPlot takes it), `null` where a series has no point. */
export interface AlignedSeries {
  readonly xs: number[];
  readonly ys: (number | null)[][];
}

/** Joins `series` on their times, sorted ascending. */
export function alignSeries(series: readonly (readonly TimedValue[])[]): AlignedSeries {
  const times = [...new Set(series.flatMap((points) => points.map(([t]) => t)))].sort((a, b) => a - b);
  const index = new Map(times.map((t, i) => [t, i]));
  const ys = series.map((points) => {
    const column: (number | null)[] = times.map(() => null);
    for (const [t, v] of points) column[index.get(t) ?? 0] = v;
    return column;
  });
  return { xs: times.map((t) => t / 1000), ys };
}

/** Latest, lowest and highest value of a series; undefined when it is empty. */
export interface SeriesSummary {
  readonly latest: number;
  readonly min: number;
  readonly max: number;
}

export function summarize(points: readonly TimedValue[]): SeriesSummary | undefined {
  const last = points[points.length - 1];
  if (!last) return undefined;
  let min = Infinity;
  let max = -Infinity;
  for (const [, v] of points) {
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  return { latest: last[1], min, max };
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
