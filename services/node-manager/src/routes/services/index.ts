import type { SchemaTypedApp } from '@triad/service-kit';
import { nmError } from '../../errors.js';
import {
  EXPLORER_SERVICES,
  parseServiceId,
  processManagerArguments,
  ServiceArgumentError,
  serviceIdOf,
  tableVisualizerArguments,
  type ExplorerServiceName,
  type ServiceArguments,
} from '../../explorer/explorer-services.js';
import { DEFAULT_ETS_LIMIT, DEFAULT_PROCESS_LIMIT } from '../../model/explorer-records.js';
import type { NodeManagerCore } from '../../node-manager-core.js';
import { presentEtsTables, presentTopProcesses } from '../../presenters/explorer-presenter.js';
import { upNode } from '../explorer/index.js';
import * as s from './schemas.js';

/** The options each service lists, as WombatOAM's service-info shows them. */
const OPTIONS: Readonly<Record<ExplorerServiceName, readonly Record<string, unknown>[]>> = {
  process_manager: [
    {
      name: 'OrderBy',
      label: 'Order by',
      type: 'enum',
      default: 'Memory',
      enabled: true,
      mandatory: false,
      values: ['Memory', 'Reductions', 'Message Queue Length'],
    },
    {
      name: 'Limit',
      label: 'Limit',
      type: 'integer',
      default: String(DEFAULT_PROCESS_LIMIT),
      enabled: true,
      mandatory: false,
    },
  ],
  table_visualizer: [
    {
      name: 'Limit',
      label: 'Limit',
      type: 'integer',
      default: String(DEFAULT_ETS_LIMIT),
      enabled: true,
      mandatory: false,
    },
  ],
};

/**
 * WombatOAM's service routes, for the explorers only (Triad keeps its own REST form at
 * `/api/explorer/...`): `GET /api/service/service-info/explorer/node/{node_id}` lists the Process
 * Manager and the Table Visualizer, `POST /api/request/service_request/` runs one once (the reply
 * waits for the read) and `GET /api/request/{request_id}` gives its result for 60 s. Reading
 * needs `read`, as the explorer routes.
 */
export function serviceRoutes(
  app: SchemaTypedApp,
  { core }: { core: NodeManagerCore },
  done: (error?: Error) => void,
): void {
  const read = { access: 'read' } as const;
  app.get('/service/service-info/explorer/node/:node_id', { schema: s.serviceInfoSchema, config: read }, async (r) => {
    const node = await core.topologyStore.findNode(r.params.node_id);
    if (!node || node.deleted) throw nmError('NM_ERR_NODE_NOT_FOUND');
    const names = Object.keys(EXPLORER_SERVICES) as ExplorerServiceName[];
    return {
      service_infos: names.map((name) => ({
        serviceId: serviceIdOf(node.id, name),
        objectType: 'node' as const,
        objectId: node.id,
        isInternal: false,
        label: EXPLORER_SERVICES[name].label,
        description: EXPLORER_SERVICES[name].description,
        options: OPTIONS[name],
      })),
    };
  });

  const run = async (serviceId: string, args: ServiceArguments) => {
    const service = parseServiceId(serviceId);
    if (!service) throw nmError('NM_ERR_SERVICE_NOT_FOUND');
    const node = await upNode(core, service.nodeId);
    let result: Readonly<Record<string, unknown>>;
    try {
      if (service.name === 'process_manager') {
        const { sort, limit } = processManagerArguments(args);
        result = presentTopProcesses(node.id, sort, await core.explorer.topProcesses(node, sort, limit));
      } else {
        const { limit } = tableVisualizerArguments(args);
        result = presentEtsTables(node.id, await core.explorer.etsTables(node, limit));
      }
    } catch (error) {
      if (error instanceof ServiceArgumentError) throw nmError('NM_ERR_BAD_SERVICE_ARGUMENTS', error.message);
      throw error;
    }
    const record = core.explorerRequests.add({
      serviceId,
      nodeId: node.id,
      label: EXPLORER_SERVICES[service.name].label,
      result,
    });
    return { requestId: record.requestId };
  };
  // WombatOAM's path ends with a slash (`/api/request/service_request/`). The app serves no path
  // with one (service-kit's router keeps them distinct, and OpenAPI paths may not end with one), so
  // only the form without it is served; see docs/decisions/0041.
  app.post('/request/service_request', { schema: s.serviceRequestSchema, config: read }, async (r) =>
    run(r.body.id, r.body.arguments ?? {}),
  );
  app.get('/request/:request_id', { schema: s.readRequestSchema, config: read }, (r) => {
    const record = core.explorerRequests.find(r.params.request_id);
    if (!record) throw nmError('NM_ERR_REQUEST_NOT_FOUND');
    return {
      requestId: record.requestId,
      serviceId: record.serviceId,
      nodeId: record.nodeId,
      label: record.label,
      finishedAt: record.finishedAt,
      result: record.result,
    };
  });
  done();
}
