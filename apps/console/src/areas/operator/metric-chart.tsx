import { useEffect, useRef, useState } from 'preact/hooks';
import {
  alignSeries,
  formatValue,
  perSecond,
  seriesLabel,
  summarize,
  type ChartSpec,
  type TimedValue,
} from './node-history.js';
import type { OperatorClient } from './operator-client.js';
import type { DrawnChart } from './uplot-chart.js';
import { errorMessage } from '../../shell/error-alert.js';

interface SeriesPoints {
  readonly label: string;
  readonly points: readonly TimedValue[];
}

/** The series of one fetch with the range they were fetched for. */
interface Fetched {
  readonly series: readonly SeriesPoints[];
  readonly from: number;
  readonly to: number;
}

/**
 * One chart of a node's metric history: the series `names` of `chart` between `from` and `to`,
 * fetched from `GET /api/metrics/node/{id}`, drawn with uPlot (loaded on first use), inside a
 * `<figure>` named after the chart whose caption says latest, lowest and highest of each series.
 */
export function MetricChart(props: {
  readonly client: OperatorClient;
  readonly nodeId: string;
  readonly chart: ChartSpec;
  readonly names: readonly string[];
  readonly from: number;
  readonly to: number;
}) {
  const { client, nodeId, chart, names, from, to } = props;
  const [fetched, setFetched] = useState<Fetched | undefined>();
  const series = fetched?.series;
  const [error, setError] = useState<string | undefined>();
  const plotArea = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let live = true;
    setError(undefined);
    Promise.all(
      names.map(async (name) => {
        const query = new URLSearchParams({ name, from: String(from), to: String(to) });
        const reply = await client.get<{ points: TimedValue[] }>(
          `/api/metrics/node/${encodeURIComponent(nodeId)}?${query.toString()}`,
        );
        return { label: seriesLabel(name), points: chart.rate ? perSecond(reply.points) : reply.points };
      }),
    )
      .then((list) => live && setFetched({ series: list, from, to }))
      .catch((reason: unknown) => live && setError(errorMessage(reason)));
    return () => {
      live = false;
    };
  }, [client, nodeId, chart, names, from, to]);

  const hasPoints = series?.some((s) => s.points.length > 0) ?? false;
  useEffect(() => {
    const target = plotArea.current;
    if (!target || !fetched || !hasPoints) return;
    const { series: lines, from: start, to: end } = fetched;
    let drawn: DrawnChart | undefined;
    let cancelled = false;
    const observer = new ResizeObserver(() => drawn?.resize(target.clientWidth));
    import('./uplot-chart.js')
      .then(({ drawChart }) => {
        if (cancelled) return;
        drawn = drawChart(
          target,
          target.clientWidth,
          lines.map((s) => s.label),
          alignSeries(lines.map((s) => s.points)),
          (v) => formatValue(v, chart.unit),
          { from: start, to: end },
        );
        observer.observe(target);
      })
      .catch((reason: unknown) => setError(errorMessage(reason)));
    return () => {
      cancelled = true;
      observer.disconnect();
      drawn?.destroy();
    };
  }, [fetched, hasPoints, chart]);

  return (
    <figure class="metric-chart" aria-labelledby={`chart-${chart.id}`}>
      <h3 id={`chart-${chart.id}`}>{chart.title}</h3>
      {hasPoints ? <div class="metric-plot" ref={plotArea} /> : null}
      <figcaption>
        {error ? (
          <span class="error">Could not load: {error}</span>
        ) : series === undefined ? (
          'Loading…'
        ) : !hasPoints ? (
          'No samples in this range.'
        ) : (
          <ul class="metric-summary">
            {series.map((s) => (
              <li key={s.label}>
                {series.length > 1 ? `${s.label}: ` : ''}
                {describeSeries(s.points, chart.unit)}
              </li>
            ))}
          </ul>
        )}
      </figcaption>
    </figure>
  );
}

/** The text alternative of one series: `latest 120, min 100, max 140 (3 points)`. */
function describeSeries(points: readonly TimedValue[], unit: ChartSpec['unit']): string {
  const summary = summarize(points);
  if (!summary) return 'no samples';
  const f = (v: number) => formatValue(v, unit);
  return `latest ${f(summary.latest)}, min ${f(summary.min)}, max ${f(summary.max)} (${points.length} points)`;
}
