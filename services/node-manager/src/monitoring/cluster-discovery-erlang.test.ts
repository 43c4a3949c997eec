import { describe, expect, it } from 'vitest';
import { liveErl } from '../connections/test-support/erl-node.js';
import { LIVE_ADMIN, useLiveNodeManager } from '../test-support/live-node-manager.js';
import { pollUntil } from '../test-support/poll-until.js';
import { ClusterDiscovery } from './cluster-discovery.js';

const suite = liveErl.available || liveErl.required ? describe : describe.skip;
const title =
  liveErl.available || liveErl.required
    ? 'cluster discovery on real Erlang nodes'
    : 'cluster discovery on real Erlang nodes (skipped: install erlang-base)';

interface ListedNode {
  id: string;
  name: string;
  state: string;
  node_family_id: string;
}

suite(title, () => {
  const live = useLiveNodeManager({ alarmPollMs: 100 });
  const nodes = async () => (await live.get<ListedNode[]>('/api/topo/node')).body;
  const send = async (method: 'POST' | 'PUT', url: string, body: unknown) => {
    const r = await fetch(`${live.server.url}${url}`, {
      method,
      headers: { ...LIVE_ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: r.status, body: await r.json() };
  };

  it('adds a node that joins a managed node’s cluster later, and not one that was deleted', async () => {
    const a = await live.startNode('nmclu');
    const b = await live.startNode('nmclu');
    const aId = await live.addUp(a.node);
    expect((await nodes()).map((n) => n.name)).toEqual([a.node.name]);
    expect(await a.run(`net_kernel:connect_node('${b.node.name}').`)).toEqual({ type: 'atom', name: 'true' });
    const joined = await pollUntil(
      async () => (await nodes()).find((n) => n.name === b.node.name && n.state === 'UP'),
      10_000,
      'the newcomer in /api/topo/node',
    );
    // Deleted by the operator: discovery leaves it out from then on.
    const deleted = await fetch(`${live.server.url}/api/topo/node/${joined.id}`, {
      method: 'DELETE',
      headers: LIVE_ADMIN,
    });
    expect(deleted.status).toBe(204);
    const discovery = new ClusterDiscovery(
      { rpc: () => a.run('erlang:nodes().') },
      live.server.core.topology,
      live.server.core.topologyStore,
      live.server.core.discovery,
      60_000,
    );
    expect(await discovery.discover({ id: aId, name: a.node.name })).toEqual([]);
    expect((await nodes()).map((n) => n.name)).toEqual([a.node.name]);
  }, 40_000);

  it('follows the family switch; add-node-and-disc on a managed node answers it and the newcomers', async () => {
    const a = await live.startNode('nmcl2');
    const c = await live.startNode('nmcl2');
    const aId = await live.addUp(a.node);
    const family = (await nodes()).find((n) => n.id === aId)!.node_family_id;
    const url = `/api/topo/node-family/${family}/cluster-discovery`;
    expect((await live.get(url)).body).toEqual({ discover_cluster: true });
    expect(await send('PUT', url, { discover_cluster: false })).toEqual({
      status: 200,
      body: { discover_cluster: false },
    });
    expect((await live.get(url)).body).toEqual({ discover_cluster: false });
    await a.run(`net_kernel:connect_node('${c.node.name}').`);
    const discovery = new ClusterDiscovery(
      { rpc: () => a.run('erlang:nodes().') },
      live.server.core.topology,
      live.server.core.topologyStore,
      live.server.core.discovery,
      60_000,
    );
    // Switched off: a round adds nothing.
    expect(await discovery.discover({ id: aId, name: a.node.name })).toEqual([]);
    expect((await nodes()).some((n) => n.name === c.node.name)).toBe(false);
    const again = await send('POST', '/api/topo/action/add-node-and-disc', {
      name: a.node.name,
      cookie: a.node.cookie,
    });
    expect(again.status).toBe(200);
    const listed = again.body as ListedNode[];
    expect(listed.map((n) => n.name)).toEqual([a.node.name, c.node.name]);
    expect(listed[0]?.id).toBe(aId);
    expect(listed[1]?.state).toBe('UP');
    // Nothing new: just the managed node.
    const third = await send('POST', '/api/topo/action/add-node-and-disc', {
      name: a.node.name,
      cookie: a.node.cookie,
    });
    expect((third.body as ListedNode[]).map((n) => n.name)).toEqual([a.node.name]);
    expect((await live.get('/api/topo/node-family/nosuch/cluster-discovery')).status).toBe(404);
  }, 40_000);
});
