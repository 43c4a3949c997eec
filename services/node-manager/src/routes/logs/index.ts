import type { SchemaTypedApp } from '@triad/service-kit';
import { nmError } from '../../errors.js';
import { NODE_LOG_TAGS } from '../../monitoring/node-logs.js';
import type { NodeManagerCore } from '../../node-manager-core.js';
import { effectiveTags } from '../alarms/index.js';
import { presentNodeLog } from '../../presenters/node-log-presenter.js';
import * as s from './schemas.js';

/**
 * `/api/logs/node/{node_id}` (Triad): the log entries collected from a node. Like the alarm lists
 * and the WebSocket's log frames, a user sees them only with one of their tags (`NODE_LOG_TAGS`)
 * or `all`; others get an empty list.
 */
export function logRoutes(
  app: SchemaTypedApp,
  { core }: { core: NodeManagerCore },
  done: (error?: Error) => void,
): void {
  app.get('/node/:node_id', { schema: s.listNodeLogsSchema, config: { access: 'read' } }, async (r) => {
    const node = await core.topologyStore.findNode(r.params.node_id);
    if (!node || node.deleted) throw nmError('NM_ERR_NODE_NOT_FOUND');
    const tags = effectiveTags(core, r, undefined);
    if (tags !== 'all' && !NODE_LOG_TAGS.some((tag) => tags.includes(tag))) return { logs: [] };
    const entries = await core.logs.store.list(node.id, r.query.limit ?? s.DEFAULT_LOG_LIMIT, r.query.level);
    return { logs: entries.map(presentNodeLog) };
  });
  done();
}
