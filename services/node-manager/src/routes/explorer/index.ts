import type { SchemaTypedApp } from '@triad/service-kit';
import { nmError } from '../../errors.js';
import type { ExplorerNode } from '../../explorer/node-explorer.js';
import { DEFAULT_ETS_LIMIT, DEFAULT_PROCESS_LIMIT, isLocalPidText } from '../../model/explorer-records.js';
import type { NodeManagerCore } from '../../node-manager-core.js';
import { presentEtsTables, presentProcessDetails, presentTopProcesses } from '../../presenters/explorer-presenter.js';
import * as s from './schemas.js';

/** The live node of the path, UP. @throws NM_ERR_NODE_NOT_FOUND, NM_ERR_NODE_NOT_UP */
export async function upNode(core: NodeManagerCore, nodeId: string): Promise<ExplorerNode> {
  const node = await core.topologyStore.findNode(nodeId);
  if (!node || node.deleted) throw nmError('NM_ERR_NODE_NOT_FOUND');
  if (node.state !== 'UP') throw nmError('NM_ERR_NODE_NOT_UP', node.state);
  return { id: node.id, name: node.name };
}

/**
 * `/api/explorer/node/{node_id}/*` (Triad; WombatOAM's process and ETS explorers): a node's top
 * processes, one process, its ETS tables, read on demand (`NodeExplorer`). Reading needs `read`;
 * nothing here changes the node.
 */
export function explorerRoutes(
  app: SchemaTypedApp,
  { core }: { core: NodeManagerCore },
  done: (error?: Error) => void,
): void {
  const read = { access: 'read' } as const;
  app.get('/node/:node_id/processes', { schema: s.topProcessesSchema, config: read }, async (request) => {
    const node = await upNode(core, request.params.node_id);
    const sort = request.query.sort ?? 'memory';
    const sample = await core.explorer.topProcesses(node, sort, request.query.limit ?? DEFAULT_PROCESS_LIMIT);
    return presentTopProcesses(node.id, sort, sample);
  });
  app.get('/node/:node_id/processes/:pid', { schema: s.processDetailsSchema, config: read }, async (request) => {
    // A malformed pid is refused before the node is looked up or asked.
    const pid = request.params.pid;
    if (!isLocalPidText(pid)) throw nmError('NM_ERR_BAD_PID');
    const node = await upNode(core, request.params.node_id);
    return presentProcessDetails(node.id, await core.explorer.process(node, pid));
  });
  app.get('/node/:node_id/ets', { schema: s.etsTablesSchema, config: read }, async (request) => {
    const node = await upNode(core, request.params.node_id);
    return presentEtsTables(node.id, await core.explorer.etsTables(node, request.query.limit ?? DEFAULT_ETS_LIMIT));
  });
  done();
}
