/**
 * Time series as the console's charts take them (`TrendChart`): points `[timeMs, value]`, several
 * series joined on one time axis for uPlot, and the figures a chart's text alternative says.
 */

/** One point of a series: `[timeMs, value]` (ms since the epoch). */
export type TimedValue = readonly [number, number];

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

/** The summary of `points`, undefined for none. */
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
