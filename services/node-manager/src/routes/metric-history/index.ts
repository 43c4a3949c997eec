import type { SchemaTypedApp } from '@triad/service-kit';
import { nmError } from '../../errors.js';
import type { NodeManagerCore } from '../../node-manager-core.js';
import { presentMetricHistory, presentMetricNames } from '../../presenters/metric-history-presenter.js';
import * as s from './schemas.js';

/** Default length of a history range without `from`, ms (1 h). */
const DEFAULT_RANGE_MS = 3_600_000;

/** `/api/metrics/*`: the metric history of managed nodes (a Triad addition; read access). */
export function metricHistoryRoutes(
  app: SchemaTypedApp,
  { core }: { core: NodeManagerCore },
  done: (error?: Error) => void,
): void {
  const read = { access: 'read' } as const;

  app.get('/names', { schema: s.listNamesSchema, config: read }, async () =>
    presentMetricNames(await core.metricHistory.names()),
  );
  app.get('/node/:node_id', { schema: s.readHistorySchema, config: read }, async (request) => {
    const { node_id: nodeId } = request.params;
    const { name } = request.query;
    const to = request.query.to ?? core.now();
    const from = request.query.from ?? Math.max(0, to - DEFAULT_RANGE_MS);
    if (from > to) throw nmError('NM_ERR_INVALID_REQUEST', 'from is after to');
    if (!(await core.topologyStore.findNode(nodeId))) throw nmError('NM_ERR_NODE_NOT_FOUND');
    if (!(await core.metricHistory.hasSeries(nodeId, name))) throw nmError('NM_ERR_METRIC_NOT_FOUND', name);
    const { points } = await core.metricHistory.read(nodeId, name, from, to);
    return presentMetricHistory(nodeId, name, points);
  });
  done();
}
