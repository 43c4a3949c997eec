import { useEffect, useRef, useState } from 'preact/hooks';
import { errorMessage } from './error-alert.js';
import { alignSeries, summarize, type TimedValue } from './timed-series.js';
import type { DrawnChart, PlotColumn } from './uplot-chart.js';
import './trend-chart.css';

/** One line of a trend chart. */
export interface TrendSeries {
  /** Its name in the legend and the text alternative. */
  readonly label: string;
  /** Oldest first. */
  readonly points: readonly TimedValue[];
  /** Drawn as a translucent band around the line: each bucket's lowest and highest value. */
  readonly band?: { readonly min: readonly TimedValue[]; readonly max: readonly TimedValue[] };
}

/** The columns to draw and their layout: each series' line, then its band's edges. */
function plotColumns(series: readonly TrendSeries[]): {
  readonly columns: PlotColumn[];
  readonly points: (readonly TimedValue[])[];
} {
  const columns: PlotColumn[] = [];
  const points: (readonly TimedValue[])[] = [];
  for (const s of series) {
    const line = columns.length;
    columns.push({ kind: 'line', label: s.label });
    points.push(s.points);
    if (!s.band) continue;
    columns.push({ kind: 'edge', label: `${s.label} min`, line, edge: 'min' });
    columns.push({ kind: 'edge', label: `${s.label} max`, line, edge: 'max' });
    points.push(s.band.min, s.band.max);
  }
  return { columns, points };
}

/**
 * One trend chart: `series` between `from` and `to` (ms since the epoch; the time axis spans the
 * whole range, not only the points) drawn with uPlot (loaded on first use) inside a `<figure>`
 * named by its heading `title`. The caption is the text alternative: one line per series from
 * `describe` (default: latest, min, max and the number of points). While `series` is undefined
 * the caption says `Loading…`; `error` replaces it with `Could not load: <error>`; with no point in
 * any series it says `empty`. A series with a `band` is drawn with its min-max band around it.
 */
export function TrendChart(props: {
  /** Unique on the page: the heading's id is `chart-<id>`. */
  readonly id: string;
  readonly title: string;
  readonly series: readonly TrendSeries[] | undefined;
  readonly error?: string | undefined;
  readonly from: number;
  readonly to: number;
  /** A y value as the axis and the caption show it. */
  readonly format: (value: number) => string;
  /** The caption when no series has a point (default `No samples in this range.`). */
  readonly empty?: string;
  readonly describe?: (series: TrendSeries) => string;
  /** On/off values (0 and 1): drawn as steps, the axis saying 0 and 1 through `format`. */
  readonly steps?: boolean;
}) {
  const { id, title, series, from, to, format, steps = false } = props;
  const [drawError, setDrawError] = useState<string | undefined>();
  const error = props.error ?? drawError;
  const plotArea = useRef<HTMLDivElement>(null);
  const hasPoints = series?.some((s) => s.points.length > 0) ?? false;
  useEffect(() => {
    const target = plotArea.current;
    if (!target || !series || !hasPoints) return;
    let drawn: DrawnChart | undefined;
    let cancelled = false;
    const observer = new ResizeObserver(() => drawn?.resize(target.clientWidth));
    import('./uplot-chart.js')
      .then(({ drawChart }) => {
        if (cancelled) return;
        const { columns, points } = plotColumns(series);
        drawn = drawChart(target, target.clientWidth, { columns, steps }, alignSeries(points), format, { from, to });
        observer.observe(target);
      })
      .catch((reason: unknown) => setDrawError(errorMessage(reason)));
    return () => {
      cancelled = true;
      observer.disconnect();
      drawn?.destroy();
    };
  }, [series, hasPoints, format, from, to, steps]);

  const describe = props.describe ?? ((s: TrendSeries) => describePoints(s.points, format));
  return (
    <figure class="metric-chart" aria-labelledby={`chart-${id}`}>
      <h3 id={`chart-${id}`}>{title}</h3>
      {hasPoints ? <div class="metric-plot" ref={plotArea} /> : null}
      <figcaption>
        {error ? (
          <span class="error">Could not load: {error}</span>
        ) : series === undefined ? (
          'Loading…'
        ) : !hasPoints ? (
          (props.empty ?? 'No samples in this range.')
        ) : (
          <ul class="metric-summary">
            {series.map((s) => (
              <li key={s.label}>
                {series.length > 1 ? `${s.label}: ` : ''}
                {describe(s)}
              </li>
            ))}
          </ul>
        )}
      </figcaption>
    </figure>
  );
}

/** The default text alternative of one series: `latest 120, min 100, max 140 (3 points)`. */
export function describePoints(points: readonly TimedValue[], format: (value: number) => string): string {
  const summary = summarize(points);
  if (!summary) return 'no samples';
  const f = format;
  return `latest ${f(summary.latest)}, min ${f(summary.min)}, max ${f(summary.max)} (${points.length} points)`;
}
