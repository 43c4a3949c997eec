import { useCallback, useEffect, useState } from 'preact/hooks';
import { errorMessage } from '../../shell/error-alert.js';
import type { TimedValue } from '../../shell/timed-series.js';
import { TrendChart, type TrendSeries } from '../../shell/trend-chart.js';
import { formatValue, perSecond, seriesLabel, type ChartSpec } from './node-history.js';
import type { OperatorClient } from './operator-client.js';

/** The series of one fetch with the range they were fetched for. */
interface Fetched {
  readonly series: readonly TrendSeries[];
  readonly from: number;
  readonly to: number;
}

/**
 * One chart of a node's metric history: the series `names` of `chart` between `from` and `to`,
 * fetched from `GET /api/metrics/node/{id}`, drawn by the shell's `TrendChart` (a `<figure>` named
 * after the chart whose caption says latest, lowest and highest of each series).
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
  const [error, setError] = useState<string | undefined>();
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
  const format = useCallback((v: number) => formatValue(v, chart.unit), [chart]);
  // The time axis spans the range the shown series were fetched for, not one still loading.
  return (
    <TrendChart
      id={chart.id}
      title={chart.title}
      series={fetched?.series}
      error={error}
      from={fetched?.from ?? from}
      to={fetched?.to ?? to}
      format={format}
    />
  );
}
