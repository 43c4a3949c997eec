import type { FastifyInstance } from 'fastify';
import type { AddNodeOptions, NewFamily } from '../../commands/topology-commands.js';
import { nmError } from '../../errors.js';
import type { NodeManagerCore } from '../../node-manager-core.js';
import { presentCreatedFamily, presentFamily, presentNode } from '../../presenters/topology-presenter.js';
import { nodeStatistics } from './node-statistics.js';
import * as s from './schemas.js';

interface AddNodeBody {
  readonly name: string;
  readonly cookie: string;
  readonly family?: string;
}

function addOptions(body: AddNodeBody): AddNodeOptions {
  return body.family === undefined ? {} : { familyId: body.family };
}

/** `/api/topo/*`: nodes, families, reachability and statistics. Changes are admin-only (as WombatOAM). */
export async function topologyRoutes(app: FastifyInstance, { core }: { core: NodeManagerCore }): Promise<void> {
  const admin = { access: 'admin' } as const;
  const tags = ['topology'];

  app.get('/node', { schema: { tags, summary: 'Every node' } }, async () =>
    (await core.topologyStore.listNodes()).map(presentNode),
  );
  app.get<{ Params: { node_id: string } }>(
    '/node/:node_id',
    { schema: { tags, summary: 'One node (deleted: true once removed)', params: s.nodeParams } },
    async (request) => {
      const node = await core.topologyStore.findNode(request.params.node_id);
      if (!node) throw nmError('NM_ERR_NODE_NOT_FOUND');
      return presentNode(node);
    },
  );
  app.delete<{ Params: { node_id: string } }>(
    '/node/:node_id',
    { schema: { tags, summary: 'Removes a node', params: s.nodeParams }, config: admin },
    async (request, reply) => {
      await core.topology.deleteNode(request.params.node_id);
      return reply.status(204).send();
    },
  );

  app.get('/node-family', { schema: { tags, summary: 'Every node family' } }, async () =>
    (await core.topologyStore.listFamilies()).map(presentFamily),
  );
  app.get<{ Params: { node_family_id: string } }>(
    '/node-family/:node_family_id',
    { schema: { tags, summary: 'One node family (deleted: true once removed)', params: s.familyParams } },
    async (request) => {
      const family = await core.topologyStore.findFamily(request.params.node_family_id);
      if (!family) throw nmError('NM_ERR_NODE_FAMILY_NOT_FOUND');
      return presentFamily(family);
    },
  );
  app.post<{ Body: NewFamily }>(
    '/node-family',
    { schema: { tags, summary: 'Creates a node family', body: s.createFamilyBody }, config: admin },
    async (request) => presentCreatedFamily(await core.topology.createFamily(request.body)),
  );
  app.delete<{ Params: { node_family_id: string } }>(
    '/node-family/:node_family_id/force',
    { schema: { tags, summary: 'Deletes a family and its nodes', params: s.familyParams }, config: admin },
    async (request, reply) => {
      await core.topology.forceDeleteFamily(request.params.node_family_id);
      return reply.status(204).send();
    },
  );
  app.post<{ Params: { family_id: string }; Body: { name: string } }>(
    '/node-family/:family_id/update',
    {
      schema: { tags, summary: 'Renames a family', params: s.familyUpdateParams, body: s.renameFamilyBody },
      config: admin,
    },
    async (request) => core.topology.renameFamily(request.params.family_id, request.body.name),
  );

  app.post<{ Body: AddNodeBody }>(
    '/action/add-node',
    {
      schema: {
        tags,
        summary: 'Adds a node by name@host and cookie, in the family of its release unless `family` names one',
        body: s.addNodeBody,
      },
      config: admin,
    },
    async (request) =>
      presentNode(await core.topology.addNode(request.body.name, request.body.cookie, addOptions(request.body))),
  );
  app.post<{ Body: AddNodeBody }>(
    '/action/add-node-and-disc',
    { schema: { tags, summary: 'Adds a node and the nodes connected to it', body: s.addNodeBody }, config: admin },
    async (request) =>
      (await core.topology.addNodeAndDiscover(request.body.name, request.body.cookie, addOptions(request.body))).map(
        presentNode,
      ),
  );
  app.post<{ Body: { node: string; family: string } }>(
    '/action/move-node',
    { schema: { tags, summary: 'Moves a node into another family', body: s.moveNodeBody }, config: admin },
    async (request) => core.topology.moveNode(request.body.node, request.body.family),
  );
  app.post<{ Body: { name: string } }>(
    '/action/analyse-reachability',
    {
      schema: { tags, summary: 'Checks whether a node name can be reached', body: s.reachabilityBody },
      config: { access: 'read' },
    },
    async (request) => core.connector.analyseReachability(request.body.name),
  );
  app.get(
    '/node-stat',
    { schema: { tags, summary: 'Cluster statistics; _this_hour counters count from the start of the hour' } },
    async () => nodeStatistics(core),
  );
}
