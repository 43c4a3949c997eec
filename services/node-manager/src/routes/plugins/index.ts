import type { FastifyInstance } from 'fastify';
import { nmError } from '../../errors.js';
import type { NodeManagerCore } from '../../node-manager-core.js';
import type { PluginRecord } from '../../repositories/plugin-repository.js';

/** A plugin as WombatOAM shows it: a proplist of three single-key objects. */
export function presentPlugin(plugin: PluginRecord) {
  return [{ plugin_name: plugin.name }, { plugin_apps: plugin.apps }, { plugin_state: plugin.state }];
}

const nodeParams = {
  type: 'object',
  required: ['node_id'],
  properties: { node_id: { type: 'string', maxLength: 64 } },
} as const;
const pluginParams = {
  type: 'object',
  required: ['node_id', 'plugin_id'],
  properties: { node_id: { type: 'string', maxLength: 64 }, plugin_id: { type: 'string', maxLength: 255 } },
} as const;
const stateBody = {
  type: 'object',
  required: ['plugin_state'],
  additionalProperties: false,
  properties: { plugin_state: { type: 'string', enum: ['on', 'off'] } },
} as const;

/** `/api/plugins/node/{node_id}/plugin[/{plugin_id}]`. */
export async function pluginRoutes(app: FastifyInstance, { core }: { core: NodeManagerCore }): Promise<void> {
  const tags = ['plugins'];
  const liveNode = async (id: string) => {
    const node = await core.topologyStore.findNode(id);
    if (!node || node.deleted) throw nmError('NM_ERR_NODE_NOT_FOUND');
  };
  app.get<{ Params: { node_id: string } }>(
    '/node/:node_id/plugin',
    { schema: { tags, summary: 'Plugins of a node', params: nodeParams } },
    async (r) => {
      await liveNode(r.params.node_id);
      return { plugins: (await core.plugins.list(r.params.node_id)).map(presentPlugin) };
    },
  );
  app.put<{ Params: { node_id: string }; Body: { plugin_state: 'on' | 'off' } }>(
    '/node/:node_id/plugin',
    { schema: { tags, summary: 'Switches every plugin of a node', params: nodeParams, body: stateBody } },
    async (r) => {
      await liveNode(r.params.node_id);
      await core.plugins.setState(r.params.node_id, r.body.plugin_state);
      return { plugins: (await core.plugins.list(r.params.node_id)).map(presentPlugin) };
    },
  );
  app.put<{ Params: { node_id: string; plugin_id: string }; Body: { plugin_state: 'on' | 'off' } }>(
    '/node/:node_id/plugin/:plugin_id',
    { schema: { tags, summary: 'Switches one plugin', params: pluginParams, body: stateBody } },
    async (r) => {
      await liveNode(r.params.node_id);
      if ((await core.plugins.setState(r.params.node_id, r.body.plugin_state, r.params.plugin_id)) === 0)
        throw nmError('NM_ERR_PLUGIN_NOT_FOUND');
      const plugin = (await core.plugins.list(r.params.node_id)).find((p) => p.name === r.params.plugin_id);
      if (!plugin) throw nmError('NM_ERR_PLUGIN_NOT_FOUND');
      return presentPlugin(plugin);
    },
  );
}
