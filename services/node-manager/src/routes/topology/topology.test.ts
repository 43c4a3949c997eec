import { beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { ReachabilityReport } from '../../connections/node-connector.js';
import type { Outcome } from '../../commands/topology-commands.js';
import type { PluginReply } from '../../presenters/plugin-presenter.js';
import type { CreatedFamilyReply, FamilyReply, NodeReply } from '../../presenters/topology-presenter.js';
import { ADMIN, basic, useTestApp } from '../../test-support/node-manager-test-app.js';
import type { NodeStatistics } from './node-statistics.js';
import type { NodeManagerDatabase } from '../../repositories/node-manager-tables.js';

interface ErrorReply {
  readonly error: string;
}
interface PluginsReply {
  readonly plugins: PluginReply[];
}

const JSON_HEADERS = { 'content-type': 'application/json', ...ADMIN };

describeEachDatabase<NodeManagerDatabase>('node-manager topology and plugins', (getDb) => {
  const t = useTestApp(getDb);
  beforeEach(() => {
    t.connector.initialState = 'DOWN';
    t.connector.nodeRelease = undefined;
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: ADMIN });
  const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: body === undefined ? ADMIN : JSON_HEADERS,
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const addNode = async (name: string) =>
    (await send('POST', '/api/topo/action/add-node', { name, cookie: 'secretcookie' })).json<NodeReply>();

  it('adds a node with every field, the connector state and a hidden cookie', async () => {
    const node = await addNode('app1@10.0.0.5');
    expect(node).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/) as string,
      name: 'app1@10.0.0.5',
      node_family_id: expect.any(String) as string,
      host: 'undefined',
      cookie: 'hidden',
      domain_id: 'undefined',
      state: 'DOWN',
      tref: 'undefined',
      deleted: false,
      plugins_opts: [],
      // Triad's node facts: null until the node is UP and has been read.
      otp_release: null,
      erts_version: null,
      uptime_ms: null,
      process_count: null,
      total_memory: null,
    });
    expect(t.connector.connected).toContain(node.id);
    expect((await get('/api/topo/node')).json<NodeReply[]>()).toEqual([node]);
    expect((await get(`/api/topo/node/${node.id}`)).json<NodeReply>()).toEqual(node);
    expect(JSON.stringify((await get('/api/topo/node')).json<NodeReply[]>())).not.toContain('secretcookie');
    const stored = await getDb().db.selectFrom('nm_nodes').select('cookie').executeTakeFirstOrThrow();
    // Sealed at rest (secrets/cookie-cipher.ts); the connector got it in clear.
    expect(stored.cookie).toMatch(/^enc:v1:/);
    expect(stored.cookie).not.toContain('secretcookie');
  });

  it('refuses names not of the form name@host and duplicates, storing nothing', async () => {
    for (const name of ['app1', 'app1@', '@host', 'a@b@c', 'a b@host']) {
      const response = await send('POST', '/api/topo/action/add-node', { name, cookie: 'c' });
      expect(response.statusCode).toBe(400);
      expect(response.json<ErrorReply>()).toEqual({ error: 'bad_node_format' });
    }
    expect((await send('POST', '/api/topo/action/add-node', { name: 'a@h' })).json<ErrorReply>()).toEqual({
      error: 'invalid_request',
    });
    await addNode('a@h');
    expect((await send('POST', '/api/topo/action/add-node', { name: 'a@h', cookie: 'c' })).json<ErrorReply>()).toEqual({
      error: 'node_exists',
    });
    expect((await get('/api/topo/node')).json<NodeReply[]>()).toHaveLength(1);
  });

  it('add-node-and-disc returns the added node and the discovered ones', async () => {
    t.connector.discovered = ['b@h', 'c@h'];
    const nodes = (await send('POST', '/api/topo/action/add-node-and-disc', { name: 'a@h', cookie: 'c' })).json<
      NodeReply[]
    >();
    t.connector.discovered = [];
    expect(nodes.map((n) => n.name)).toEqual(['a@h', 'b@h', 'c@h']);
  });

  it('places nodes added UP in the family of their release, created once for concurrent adds', async () => {
    t.connector.initialState = 'UP';
    t.connector.nodeRelease = { name: 'OTP  APN 181 01', version: 'R16B03-1' };
    const [a, b] = await Promise.all([addNode('a@h'), addNode('b@h')]);
    expect(a.state).toBe('UP');
    expect(t.connector.releaseAsked).toEqual(expect.arrayContaining([a.id, b.id]));
    const families = (await get('/api/topo/node-family')).json<FamilyReply[]>();
    expect(families).toHaveLength(1);
    expect(families[0]).toMatchObject({
      id: a.node_family_id,
      name: 'OTP  APN 181 01 R16B03-1',
      bootstrap_strategy: ['wo_bootstrap_strategy', 'none', []],
    });
    expect([...(families[0]?.nodes ?? [])].sort()).toEqual([a.id, b.id].sort());
  });

  it('puts a node in Default when it is not UP (without asking its release) or its release is unknown', async () => {
    t.connector.nodeRelease = { name: 'Erlang/OTP', version: '25' };
    const down = await addNode('down@h');
    expect(t.connector.releaseAsked).not.toContain(down.id);
    t.connector.initialState = 'UP';
    t.connector.nodeRelease = undefined;
    const unknown = await addNode('up@h');
    expect(t.connector.releaseAsked).toContain(unknown.id);
    const families = (await get('/api/topo/node-family')).json<FamilyReply[]>();
    expect(families.map((f) => f.name)).toEqual(['Default']);
    expect(families[0]?.nodes).toEqual([down.id, unknown.id]);
  });

  it('adds a node into the family named by id, and refuses an unknown family before connecting', async () => {
    t.connector.initialState = 'UP';
    t.connector.nodeRelease = { name: 'Erlang/OTP', version: '25' };
    const web = (
      await send('POST', '/api/topo/node-family', {
        name: 'Web',
        bootstrap_node_selection: 'random',
        bootstrap_strategy: 'none',
        bootstrap_strategy_opts: [],
      })
    ).json<CreatedFamilyReply>();
    const node = (
      await send('POST', '/api/topo/action/add-node', { name: 'a@h', cookie: 'c', family: web.id })
    ).json<NodeReply>();
    expect(node.node_family_id).toBe(web.id);
    expect(t.connector.releaseAsked).not.toContain(node.id);
    const connects = t.connector.connected.length;
    const refused = await send('POST', '/api/topo/action/add-node', {
      name: 'b@h',
      cookie: 'c',
      family: 'no-such-family',
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.json<ErrorReply>()).toEqual({ error: 'node_family_not_found' });
    expect(t.connector.connected).toHaveLength(connects);
    expect((await get('/api/topo/node')).json<NodeReply[]>().map((n) => n.name)).toEqual(['a@h']);
    expect((await get('/api/topo/node-family')).json<FamilyReply[]>().map((f) => f.name)).toEqual(['Web']);
  });

  it('creates one family when many callers ask for the same name at once, and renames into a name once', async () => {
    // The commands directly: the API lets one user run only a few writes at once. On PostgreSQL each
    // call runs on its own pooled connection, so a check and an insert that do not hold one lock
    // together both find the name free.
    const create = (name: string) =>
      t.core.topology.createFamily({
        name,
        bootstrap_node_selection: 'random',
        bootstrap_strategy: 'none',
        bootstrap_strategy_opts: [],
      });
    const created = await Promise.allSettled(Array.from({ length: 8 }, () => create('Same')));
    expect(created.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const refused of created)
      if (refused.status === 'rejected') expect(refused.reason).toMatchObject({ code: 'NM_ERR_NODE_FAMILY_EXISTS' });
    const named = (name: string) =>
      getDb().db.selectFrom('nm_node_families').select('id').where('name', '=', name).execute();
    expect(await named('Same')).toHaveLength(1);

    const others = await Promise.all(['A', 'B', 'C', 'D'].map(create));
    const renames = await Promise.all(others.map((f) => t.core.topology.renameFamily(f.id, 'Taken')));
    expect(renames.filter((r) => r.success)).toHaveLength(1);
    expect(renames.filter((r) => !r.success)).toEqual(
      Array.from({ length: 3 }, () => ({ success: false, reason: 'node_family_name_taken' })),
    );
    expect(await named('Taken')).toHaveLength(1);
    const refused = await send('POST', '/api/topo/node-family', {
      name: 'Taken',
      bootstrap_node_selection: 'random',
      bootstrap_strategy: 'none',
      bootstrap_strategy_opts: [],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<ErrorReply>()).toEqual({ error: 'node_family_exists' });
  });

  it("lists a family's nodes exactly as GET /api/topo/node shows them, and 404 for an unknown family", async () => {
    const web = (
      await send('POST', '/api/topo/node-family', {
        name: 'Web',
        bootstrap_node_selection: 'random',
        bootstrap_strategy: 'none',
        bootstrap_strategy_opts: [],
      })
    ).json<CreatedFamilyReply>();
    const inWeb = (
      await send('POST', '/api/topo/action/add-node', { name: 'w1@h', cookie: 'c', family: web.id })
    ).json<NodeReply>();
    const elsewhere = await addNode('x1@h');
    const inWeb2 = (
      await send('POST', '/api/topo/action/add-node', { name: 'w2@h', cookie: 'c', family: web.id })
    ).json<NodeReply>();
    const all = (await get('/api/topo/node')).json<NodeReply[]>();
    expect(all.map((n) => n.name)).toEqual(['w1@h', 'x1@h', 'w2@h']);

    const listed = await get(`/api/topo/node-family/${web.id}/node`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json<NodeReply[]>()).toEqual(all.filter((n) => n.node_family_id === web.id));
    expect(listed.json<NodeReply[]>().map((n) => n.id)).toEqual([inWeb.id, inWeb2.id]);
    expect((await get(`/api/topo/node-family/${elsewhere.node_family_id}/node`)).json<NodeReply[]>()).toEqual([all[1]]);

    const unknown = await get('/api/topo/node-family/no-such-family/node');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<ErrorReply>()).toEqual({ error: 'node_family_not_found' });

    // Rights as the other topology reads: read suffices, a user without it is refused.
    await t.core.users.addUser('guest1', 'guestpw12', 'guest');
    await t.core.users.addUser('writer1', 'writerpw1', 'user');
    await t.core.users.changeRights('writer1', ['write']);
    const asGuest = await t.app.inject({
      method: 'GET',
      url: `/api/topo/node-family/${web.id}/node`,
      headers: basic('guest1', 'guestpw12'),
    });
    expect(asGuest.json<NodeReply[]>()).toHaveLength(2);
    const asWriter = await t.app.inject({
      method: 'GET',
      url: `/api/topo/node-family/${web.id}/node`,
      headers: basic('writer1', 'writerpw1'),
    });
    expect(asWriter.statusCode).toBe(400);
    expect(asWriter.json<ErrorReply>()).toEqual({ error: 'forbidden' });

    expect((await send('DELETE', `/api/topo/node-family/${web.id}/force`)).statusCode).toBe(204);
    expect((await get(`/api/topo/node-family/${web.id}/node`)).json<NodeReply[]>()).toEqual([]);
  });

  it('creates, lists, renames and force-deletes families; deleted ones report deleted: true', async () => {
    const created = (
      await send('POST', '/api/topo/node-family', {
        name: 'Web',
        bootstrap_node_selection: 'random',
        bootstrap_strategy: 'Custom',
        bootstrap_strategy_opts: ['start.sh'],
      })
    ).json<CreatedFamilyReply>();
    expect(created).toMatchObject({
      name: 'Web',
      node_selection: 'random',
      bootstrap_strategy: 'Custom',
      bootstrap_strategy_opts: ['start.sh'],
      nodes: [],
      deleted: false,
    });
    const listed = (await get(`/api/topo/node-family/${created.id}`)).json<FamilyReply>();
    expect(listed.bootstrap_strategy).toEqual(['wo_bootstrap_strategy', 'Custom', ['start.sh']]);
    expect(
      (await send('POST', `/api/topo/node-family/${created.id}/update`, { name: 'Web2' })).json<Outcome>(),
    ).toEqual({
      success: true,
    });
    expect((await get(`/api/topo/node-family/${created.id}`)).json<FamilyReply>().name).toBe('Web2');
    expect((await send('POST', '/api/topo/node-family/nope/update', { name: 'X' })).json<Outcome>()).toEqual({
      success: false,
      reason: 'node_family_not_found',
    });

    const node = await addNode('a@h');
    expect(
      (await send('POST', '/api/topo/action/move-node', { node: node.id, family: created.id })).json<Outcome>(),
    ).toEqual({
      success: true,
    });
    expect((await get(`/api/topo/node-family/${created.id}`)).json<FamilyReply>().nodes).toEqual([node.id]);
    expect(
      (await send('POST', '/api/topo/action/move-node', { node: 'nope', family: created.id })).json<Outcome>(),
    ).toEqual({
      success: false,
      reason: 'node_or_family_not_found',
    });

    const del = await send('DELETE', `/api/topo/node-family/${created.id}/force`);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect((await get(`/api/topo/node-family/${created.id}`)).json<FamilyReply>().deleted).toBe(true);
    expect((await get(`/api/topo/node/${node.id}`)).json<NodeReply>().deleted).toBe(true);
    expect(t.connector.disconnected).toContain(node.id);
    expect((await get('/api/topo/node')).json<NodeReply[]>()).toEqual([]);
    expect((await send('DELETE', `/api/topo/node-family/${created.id}/force`)).statusCode).toBe(404);
  });

  it('shows every change in node and family lists asked for again (cached lists are dropped on writes)', async () => {
    const names = async () => (await get('/api/topo/node')).json<NodeReply[]>().map((n) => `${n.name}:${n.state}`);
    const a = await addNode('a@h');
    expect(await names()).toEqual(['a@h:DOWN']);
    await t.core.topology.setNodeState(a.id, 'UP');
    expect(await names()).toEqual(['a@h:UP']);
    const b = await addNode('b@h');
    expect(await names()).toEqual(['a@h:UP', 'b@h:DOWN']);
    const family = (
      await send('POST', '/api/topo/node-family', {
        name: 'Web',
        bootstrap_node_selection: 'random',
        bootstrap_strategy: 'Custom',
        bootstrap_strategy_opts: [],
      })
    ).json<CreatedFamilyReply>();
    const families = async () =>
      (await get('/api/topo/node-family')).json<FamilyReply[]>().find((f) => f.name === 'Web')?.nodes;
    expect(await families()).toEqual([]);
    await send('POST', '/api/topo/action/move-node', { node: b.id, family: family.id });
    expect(await families()).toEqual([b.id]);
    await send('DELETE', `/api/topo/node/${a.id}`);
    expect(await names()).toEqual(['b@h:DOWN']);
  });

  it('refuses a family with a selection other than random or a missing field', async () => {
    const body = {
      name: 'X',
      bootstrap_node_selection: 'first',
      bootstrap_strategy: 'none',
      bootstrap_strategy_opts: [],
    };
    expect((await send('POST', '/api/topo/node-family', body)).statusCode).toBe(400);
    expect((await send('POST', '/api/topo/node-family', { name: 'X' })).json<ErrorReply>()).toEqual({
      error: 'invalid_request',
    });
    expect((await get('/api/topo/node-family')).json<FamilyReply[]>()).toEqual([]);
  });

  it('deletes a node with 204; it keeps answering with deleted: true', async () => {
    const node = await addNode('a@h');
    expect((await send('DELETE', `/api/topo/node/${node.id}`)).statusCode).toBe(204);
    expect((await get(`/api/topo/node/${node.id}`)).json<NodeReply>()).toMatchObject({ id: node.id, deleted: true });
    expect((await send('DELETE', `/api/topo/node/${node.id}`)).json<ErrorReply>()).toEqual({ error: 'node_not_found' });
    expect((await get('/api/topo/node/unknown')).statusCode).toBe(404);
  });

  it('counts nodes, up nodes, families and alarms in node-stat', async () => {
    const a = await addNode('a@h');
    await addNode('b@h');
    await t.core.topology.setNodeState(a.id, 'UP');
    await t.core.alarms.raise({ alarmId: 'node_down', nodeId: a.id });
    const stat = (await get('/api/topo/node-stat')).json<NodeStatistics>();
    expect(stat).toEqual({
      number_of_nodes: 2,
      number_of_up_nodes: 1,
      number_of_families: 1,
      number_of_crashlogs_this_hour: 0,
      number_of_new_alarms_raised_this_hour: 1,
      number_of_active_alarms: 1,
      family_stats: [{ id: a.node_family_id, number_of_nodes: 2, number_of_up_nodes: 1 }],
    });
  });

  it('answers analyse-reachability from the connector and validates its body', async () => {
    const reply = (
      await send('POST', '/api/topo/action/analyse-reachability', { name: 'a@h' })
    ).json<ReachabilityReport>();
    expect(reply).toMatchObject({ reachability: 'should be reachable', description: 'a@h' });
    expect((await send('POST', '/api/topo/action/analyse-reachability', {})).json<ErrorReply>()).toEqual({
      error: 'invalid_request',
    });
  });

  it('refuses analyse-reachability without the execute right, whatever the role, and allows it with it', async () => {
    const { users } = t.core;
    await users.addUser('guest1', 'guestpw12', 'guest');
    await users.addUser('user1', 'userpw123', 'user');
    await users.addUser('runner1', 'runnerpw1', 'guest');
    await users.changeRights('runner1', ['read', 'execute']);
    const analyse = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/topo/action/analyse-reachability',
        headers: { 'content-type': 'application/json', ...headers },
        payload: JSON.stringify({ name: 'epmd@10.0.0.9' }),
      });
    for (const who of [basic('guest1', 'guestpw12'), basic('user1', 'userpw123')]) {
      const refused = await analyse(who);
      expect(refused.statusCode).toBe(400);
      expect(refused.json<ErrorReply>()).toEqual({ error: 'forbidden' });
    }
    const allowed = await analyse(basic('runner1', 'runnerpw1'));
    expect(allowed.json<ReachabilityReport>()).toMatchObject({ description: 'epmd@10.0.0.9' });
  });

  it('lists plugins as proplists and switches one or all', async () => {
    const node = await addNode('a@h');
    const plugins = (await get(`/api/plugins/node/${node.id}/plugin`)).json<PluginsReply>().plugins;
    expect(plugins[0]).toEqual([
      { plugin_name: 'wombat_plugin_builtin_metrics' },
      { plugin_apps: 'kernel' },
      { plugin_state: 'on' },
    ]);
    const one = await send('PUT', `/api/plugins/node/${node.id}/plugin/wombat_plugin_alarm`, { plugin_state: 'off' });
    expect(one.json<PluginReply>()).toEqual([
      { plugin_name: 'wombat_plugin_alarm' },
      { plugin_apps: 'kernel' },
      { plugin_state: 'off' },
    ]);
    const all = (await send('PUT', `/api/plugins/node/${node.id}/plugin`, { plugin_state: 'on' })).json<PluginsReply>()
      .plugins;
    expect(all.every((p) => p[2].plugin_state === 'on')).toBe(true);
    expect(
      (await send('PUT', `/api/plugins/node/${node.id}/plugin/nope`, { plugin_state: 'on' })).json<ErrorReply>(),
    ).toEqual({
      error: 'plugin_not_found',
    });
    expect(
      (await send('PUT', `/api/plugins/node/${node.id}/plugin`, { plugin_state: 'maybe' })).json<ErrorReply>(),
    ).toEqual({
      error: 'invalid_request',
    });
    expect((await get('/api/plugins/node/unknown/plugin')).json<ErrorReply>()).toEqual({ error: 'node_not_found' });
  });
});
