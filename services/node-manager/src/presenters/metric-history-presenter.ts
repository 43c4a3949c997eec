import type { TimedValue } from '../repositories/metric-history-repository.js';

/** The reply of `GET /api/metrics/node/{node_id}`. */
export interface MetricHistoryReply {
  readonly node_id: string;
  readonly name: string;
  readonly points: [number, number][];
}

/** A series read as the API shows it: `{node_id, name, points: [[timeMs, value], ...]}`. */
export function presentMetricHistory(nodeId: string, name: string, points: readonly TimedValue[]): MetricHistoryReply {
  return { node_id: nodeId, name, points: points.map(([time, value]) => [time, value]) };
}

/** The reply of `GET /api/metrics/names`. */
export function presentMetricNames(names: readonly string[]): { names: string[] } {
  return { names: [...names] };
}
