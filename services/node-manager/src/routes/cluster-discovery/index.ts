import type { SchemaTypedApp } from '@triad/service-kit';
import { nmError } from '../../errors.js';
import type { NodeManagerCore } from '../../node-manager-core.js';
import * as s from './schemas.js';

/**
 * `/api/topo/node-family/{node_family_id}/cluster-discovery` (Triad): whether nodes joining the
 * clusters of the family's nodes later are added (on by default; monitoring/cluster-discovery.ts).
 */
export function clusterDiscoveryRoutes(
  app: SchemaTypedApp,
  { core }: { core: NodeManagerCore },
  done: (error?: Error) => void,
): void {
  app.get(
    '/node-family/:node_family_id/cluster-discovery',
    { schema: s.getClusterDiscoverySchema, config: { access: 'read' } },
    async (r) => {
      const on = await core.discovery.isOn(r.params.node_family_id);
      if (on === undefined) throw nmError('NM_ERR_NODE_FAMILY_NOT_FOUND');
      return { discover_cluster: on };
    },
  );
  app.put(
    '/node-family/:node_family_id/cluster-discovery',
    { schema: s.setClusterDiscoverySchema, config: { access: 'admin' } },
    async (r) => {
      if (!(await core.discovery.set(r.params.node_family_id, r.body.discover_cluster)))
        throw nmError('NM_ERR_NODE_FAMILY_NOT_FOUND');
      return { discover_cluster: r.body.discover_cluster };
    },
  );
  done();
}
