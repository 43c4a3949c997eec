import type { SchemaTypedApp } from '@triad/service-kit';
import type { AddNodeOptions } from '../../commands/topology-commands.js';
import { nmError } from '../../errors.js';
import type { NodeManagerCore } from '../../node-manager-core.js';
import {
  presentCreatedFamily,
  presentFamily,
  presentNode,
  presentNodeInfo,
} from '../../presenters/topology-presenter.js';
import { nodeStatistics } from './node-statistics.js';
import * as s from './schemas.js';

function addOptions(body: s.AddNodeBody): AddNodeOptions {
  return body.family === undefined ? {} : { familyId: body.family };
}

/** `/api/topo/*`: nodes, families, reachability and statistics. Changes are admin-only (as WombatOAM). */
export function topologyRoutes(
  app: SchemaTypedApp,
  { core }: { core: NodeManagerCore },
  done: (error?: Error) => void,
): void {
  const read = { access: 'read' } as const;
  const admin = { access: 'admin' } as const;
  // It makes the service probe any host's EPMD and list the names there: an action, not a read.
  const execute = { access: 'execute' } as const;

  app.get('/node', { schema: s.listNodesSchema, config: read }, async () => {
    const nodes = await core.topologyStore.listNodes();
    const facts = await core.facts.read(nodes.map((n) => n.id));
    return nodes.map((node) => presentNode(node, facts.get(node.id), core.now()));
  });
  app.get('/node/:node_id', { schema: s.readNodeSchema, config: read }, async (request) => {
    const node = await core.topologyStore.findNode(request.params.node_id);
    if (!node) throw nmError('NM_ERR_NODE_NOT_FOUND');
    return presentNode(node, (await core.facts.read([node.id])).get(node.id), core.now());
  });
  app.get('/node/:node_id/info', { schema: s.readNodeInfoSchema, config: read }, async (request) => {
    const node = await core.topologyStore.findNode(request.params.node_id);
    if (!node) throw nmError('NM_ERR_NODE_NOT_FOUND');
    return presentNodeInfo(node, (await core.facts.read([node.id])).get(node.id), core.now());
  });
  app.delete('/node/:node_id', { schema: s.deleteNodeSchema, config: admin }, async (request, reply) => {
    await core.topology.deleteNode(request.params.node_id);
    return reply.status(204).send();
  });

  app.get('/node-family', { schema: s.listFamiliesSchema, config: read }, async () =>
    (await core.topologyStore.listFamilies()).map(presentFamily),
  );
  app.get('/node-family/:node_family_id', { schema: s.readFamilySchema, config: read }, async (request) => {
    const family = await core.topologyStore.findFamily(request.params.node_family_id);
    if (!family) throw nmError('NM_ERR_NODE_FAMILY_NOT_FOUND');
    return presentFamily(family);
  });
  app.get('/node-family/:node_family_id/node', { schema: s.listFamilyNodesSchema, config: read }, async (request) => {
    const familyId = request.params.node_family_id;
    if (!(await core.topologyStore.findFamily(familyId))) throw nmError('NM_ERR_NODE_FAMILY_NOT_FOUND');
    // A removed family answers [] (its nodes were removed with it), as the family itself keeps answering.
    const nodes = (await core.topologyStore.listNodes()).filter((node) => node.familyId === familyId);
    const facts = await core.facts.read(nodes.map((n) => n.id));
    return nodes.map((node) => presentNode(node, facts.get(node.id), core.now()));
  });
  app.post('/node-family', { schema: s.createFamilySchema, config: admin }, async (request) =>
    presentCreatedFamily(await core.topology.createFamily(request.body)),
  );
  app.delete(
    '/node-family/:node_family_id/force',
    { schema: s.forceDeleteFamilySchema, config: admin },
    async (request, reply) => {
      await core.topology.forceDeleteFamily(request.params.node_family_id);
      return reply.status(204).send();
    },
  );
  app.post('/node-family/:family_id/update', { schema: s.renameFamilySchema, config: admin }, async (request) =>
    core.topology.renameFamily(request.params.family_id, request.body.name),
  );

  app.post('/action/add-node', { schema: s.addNodeSchema, config: admin }, async (request) =>
    presentNode(await core.topology.addNode(request.body.name, request.body.cookie, addOptions(request.body))),
  );
  app.post('/action/add-node-and-disc', { schema: s.addNodeAndDiscoverSchema, config: admin }, async (request) =>
    (await core.topology.addNodeAndDiscover(request.body.name, request.body.cookie, addOptions(request.body))).map(
      (node) => presentNode(node),
    ),
  );
  app.post('/action/move-node', { schema: s.moveNodeSchema, config: admin }, async (request) =>
    core.topology.moveNode(request.body.node, request.body.family),
  );
  app.post('/action/analyse-reachability', { schema: s.reachabilitySchema, config: execute }, async (request) =>
    core.connector.analyseReachability(request.body.name),
  );
  app.get('/node-stat', { schema: s.nodeStatisticsSchema, config: read }, async () => nodeStatistics(core));
  done();
}
