import type { SchemaTypedApp } from '@triad/service-kit';
import { nmError } from '../../errors.js';
import type { NodeManagerCore } from '../../node-manager-core.js';
import { presentPlugin } from '../../presenters/plugin-presenter.js';
import * as s from './schemas.js';

/** `/api/plugins/node/{node_id}/plugin[/{plugin_id}]`. */
export function pluginRoutes(
  app: SchemaTypedApp,
  { core }: { core: NodeManagerCore },
  done: (error?: Error) => void,
): void {
  const liveNode = async (id: string) => {
    const node = await core.topologyStore.findNode(id);
    if (!node || node.deleted) throw nmError('NM_ERR_NODE_NOT_FOUND');
  };
  app.get('/node/:node_id/plugin', { schema: s.listPluginsSchema, config: { access: 'read' } }, async (r) => {
    await liveNode(r.params.node_id);
    return { plugins: (await core.plugins.list(r.params.node_id)).map(presentPlugin) };
  });
  app.put('/node/:node_id/plugin', { schema: s.setAllPluginsSchema, config: { access: 'write' } }, async (r) => {
    await liveNode(r.params.node_id);
    await core.plugins.setState(r.params.node_id, r.body.plugin_state);
    return { plugins: (await core.plugins.list(r.params.node_id)).map(presentPlugin) };
  });
  app.put('/node/:node_id/plugin/:plugin_id', { schema: s.setPluginSchema, config: { access: 'write' } }, async (r) => {
    await liveNode(r.params.node_id);
    if ((await core.plugins.setState(r.params.node_id, r.body.plugin_state, r.params.plugin_id)) === 0)
      throw nmError('NM_ERR_PLUGIN_NOT_FOUND');
    const plugin = (await core.plugins.list(r.params.node_id)).find((p) => p.name === r.params.plugin_id);
    if (!plugin) throw nmError('NM_ERR_PLUGIN_NOT_FOUND');
    return presentPlugin(plugin);
  });
  done();
}
