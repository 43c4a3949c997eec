import { describe, expect, it } from 'vitest';
import { liveErl } from '../../connections/test-support/erl-node.js';
import type { EtsTablesReply, ProcessDetailsReply, TopProcessesReply } from '../../presenters/explorer-presenter.js';
import { LIVE_ADMIN, useLiveNodeManager, type LiveNode } from '../../test-support/live-node-manager.js';

const suite = liveErl.available || liveErl.required ? describe : describe.skip;
const title =
  liveErl.available || liveErl.required
    ? 'explorer on a real Erlang node'
    : 'explorer on a real Erlang node (skipped: install erlang-base)';

interface ErrorReply {
  readonly error: string;
}

const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

suite(title, () => {
  const live = useLiveNodeManager({});
  let started: { node: LiveNode; id: string } | undefined;

  /** One node for the block, with a process holding 5,000 messages and a named ETS table's owner. */
  async function node(): Promise<{ node: LiveNode; id: string }> {
    if (started) return started;
    const n = await live.startNode('nmexpl');
    await n.run(
      [
        'Q = spawn(fun() -> receive stop -> ok end end), register(explorer_long_queue, Q),',
        '[Q ! {message, I} || I <- lists:seq(1, 5000)],',
        'Self = self(),',
        'O = spawn(fun() -> ets:new(explorer_test_table, [named_table, bag, public]),',
        'ets:insert(explorer_test_table, [{K, K} || K <- lists:seq(1, 100)]),',
        'register(explorer_table_owner, self()), Self ! ready, receive stop -> ok end end),',
        'receive ready -> ok after 5000 -> timeout end.',
      ].join(' '),
    );
    started = { node: n, id: await live.addUp(n.node) };
    return started;
  }
  const get = async <T>(url: string, headers: Record<string, string> = LIVE_ADMIN) => {
    const r = await fetch(`${live.server.url}${url}`, { headers });
    return { status: r.status, body: (await r.json()) as T };
  };

  it('lists the process with the longest message queue first under sort=message_queue_len', async () => {
    const { id } = await node();
    const { status, body } = await get<TopProcessesReply>(
      `/api/explorer/node/${id}/processes?sort=message_queue_len&limit=5`,
    );
    expect(status).toBe(200);
    expect(body.node_id).toBe(id);
    expect(body.sort).toBe('message_queue_len');
    expect(body.process_count).toBeGreaterThan(20);
    expect(body.processes).toHaveLength(5);
    const first = body.processes[0]!;
    expect(first).toMatchObject({ registered_name: 'explorer_long_queue', message_queue_len: 5000 });
    expect(first.pid).toMatch(/^<0\.\d+\.\d+>$/);
    expect(first.current_function).toMatch(/:.+\/\d+$/);
    expect(first.initial_call).toMatch(/\/\d+$/);
    expect(first.memory).toBeGreaterThan(5000 * 8);
    const queues = body.processes.map((p) => p.message_queue_len);
    expect(queues).toEqual([...queues].sort((a, b) => b - a));
  }, 30_000);

  it('orders by memory by default, 20 processes, proc_lib starts named by their real initial call', async () => {
    const { id } = await node();
    const { body } = await get<TopProcessesReply>(`/api/explorer/node/${id}/processes`);
    expect(body.sort).toBe('memory');
    expect(body.processes).toHaveLength(20);
    const memories = body.processes.map((p) => p.memory);
    expect(memories).toEqual([...memories].sort((a, b) => b - a));
    const byReductions = await get<TopProcessesReply>(`/api/explorer/node/${id}/processes?sort=reductions&limit=200`);
    // gen_servers start in proc_lib:init_p/5; the list shows the module they were started with.
    const global = byReductions.body.processes.find((p) => p.registered_name === 'global_name_server');
    expect(global?.initial_call).toBe('global:init/1');
    expect(byReductions.body.processes.some((p) => p.initial_call === 'proc_lib:init_p/5')).toBe(false);
  }, 30_000);

  it('lists an ETS table created on the node with its owner, type, size and memory in bytes', async () => {
    const { id, node: n } = await node();
    const { status, body } = await get<EtsTablesReply>(`/api/explorer/node/${id}/ets?limit=1000`);
    expect(status).toBe(200);
    expect(body.table_count).toBeGreaterThanOrEqual(body.tables.length);
    const table = body.tables.find((t) => t.name === 'explorer_test_table');
    const owner = await n.run('pid_to_list(whereis(explorer_table_owner)).');
    expect(table).toEqual({
      name: 'explorer_test_table',
      id: expect.stringMatching(/^#Ref<0\.[0-9.]+>$/) as string,
      owner: owner.type === 'string' ? owner.value : '?',
      owner_name: 'explorer_table_owner',
      type: 'bag',
      size: 100,
      memory: expect.any(Number) as number,
      protection: 'public',
    });
    expect(table!.memory).toBeGreaterThan(100 * 3 * 8);
    const memories = body.tables.map((t) => t.memory);
    expect(memories).toEqual([...memories].sort((a, b) => b - a));
  }, 30_000);

  it('shows one process in detail, and 404 process_not_found once it is gone', async () => {
    const { id, node: n } = await node();
    const text = await n.run('pid_to_list(whereis(explorer_table_owner)).');
    const pid = text.type === 'string' ? text.value : '';
    const { status, body } = await get<ProcessDetailsReply>(
      `/api/explorer/node/${id}/processes/${encodeURIComponent(pid)}`,
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      node_id: id,
      pid,
      registered_name: 'explorer_table_owner',
      status: 'waiting',
      trap_exit: false,
      priority: 'normal',
      links: { count: 0, items: [] },
    });
    expect(body.current_stacktrace.length).toBeGreaterThan(0);
    expect(body.group_leader).toMatch(/^<0\.\d+\.\d+>$/);

    const gone = await n.run('P = spawn(fun() -> ok end), timer:sleep(50), pid_to_list(P).');
    const missing = await get<ErrorReply>(
      `/api/explorer/node/${id}/processes/${encodeURIComponent(gone.type === 'string' ? gone.value : '')}`,
    );
    expect(missing).toEqual({ status: 404, body: { error: 'process_not_found' } });
  }, 30_000);

  it('refuses a pid in any other form than <0.N.S> with 400 bad_pid, without asking the node', async () => {
    const { id } = await node();
    for (const bad of [
      '0.1.0',
      '<0.1>',
      '<1.2.3>',
      '<0.01.0>',
      '<0.-1.0>',
      '<0.1.0> ',
      'self()',
      '<0.1.0>,halt()',
      'list_to_pid("<0.1.0>")',
    ]) {
      const r = await get<ErrorReply>(`/api/explorer/node/${id}/processes/${encodeURIComponent(bad)}`);
      expect({ bad, ...r }).toEqual({ bad, status: 400, body: { error: 'bad_pid' } });
    }
    // The node still runs: a refused pid never reached it.
    expect((await get<TopProcessesReply>(`/api/explorer/node/${id}/processes?limit=1`)).status).toBe(200);
  }, 30_000);

  it('needs the read right, and refuses a limit above 200, an unknown sort and an unknown node', async () => {
    const { id } = await node();
    await live.server.core.users.addUser('writer1', 'writerpw1', 'user');
    await live.server.core.users.changeRights('writer1', ['write']);
    await live.server.core.users.addUser('guest1', 'guestpw12', 'guest');
    for (const path of ['processes', 'ets', 'processes/%3C0.1.0%3E']) {
      const refused = await get<ErrorReply>(`/api/explorer/node/${id}/${path}`, basic('writer1', 'writerpw1'));
      // The node manager answers a missing right as every route does: 400 forbidden (the spec's {error} shape).
      expect({ path, ...refused }).toEqual({ path, status: 400, body: { error: 'forbidden' } });
      expect((await get(`/api/explorer/node/${id}/${path}`, basic('guest1', 'guestpw12'))).status).toBe(200);
    }
    const unauthenticated = await fetch(`${live.server.url}/api/explorer/node/${id}/ets`);
    expect(unauthenticated.status).toBe(401);
    expect((await get<ErrorReply>(`/api/explorer/node/${id}/processes?limit=201`)).body).toEqual({
      error: 'invalid_request',
    });
    expect((await get<ErrorReply>(`/api/explorer/node/${id}/processes?sort=heap`)).status).toBe(400);
    expect(await get<ErrorReply>('/api/explorer/node/no-such-node/ets')).toEqual({
      status: 404,
      body: { error: 'node_not_found' },
    });
  }, 30_000);

  it("runs WombatOAM's Process Manager service as its load-test harness asks for it", async () => {
    const { id } = await node();
    const { status, body } = await get<{ service_infos: { serviceId: string; label: string }[] }>(
      `/api/service/service-info/explorer/node/${id}`,
    );
    expect(status).toBe(200);
    expect(body.service_infos.map((s) => s.label)).toEqual(['Process Manager', 'Table Visualizer']);
    const serviceId = body.service_infos[0]!.serviceId;
    // The harness's own path, with its trailing slash.
    const post = (payload: unknown) =>
      fetch(`${live.server.url}/api/request/service_request/`, {
        method: 'POST',
        headers: { ...LIVE_ADMIN, 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
    const started = await post({
      id: serviceId,
      arguments: {
        OrderBy: 'Message Queue Length',
        Interval: '10',
        Limit: '10',
        OrderDirection: 'Descending',
        Page: '1',
        FilterText: '',
      },
    });
    expect(started.status).toBe(200);
    const { requestId } = (await started.json()) as { requestId: string };
    const read = await get<{ label: string; result: TopProcessesReply }>(`/api/request/${requestId}`);
    expect(read.status).toBe(200);
    expect(read.body.label).toBe('Process Manager');
    expect(read.body.result.processes).toHaveLength(10);
    expect(read.body.result.processes[0]?.registered_name).toBe('explorer_long_queue');

    expect((await post({ id: 'g2gF', arguments: {} })).status).toBe(404);
    const badOrder = await post({ id: serviceId, arguments: { OrderBy: 'Heap' } });
    expect({ status: badOrder.status, body: await badOrder.json() }).toEqual({
      status: 400,
      body: { error: 'bad_service_arguments' },
    });
    expect(await get<ErrorReply>('/api/request/no-such-request')).toEqual({
      status: 404,
      body: { error: 'request_not_found' },
    });
  }, 30_000);

  it('answers 409 node_not_up for a node that is not UP', async () => {
    const added = await fetch(`${live.server.url}/api/topo/action/add-node`, {
      method: 'POST',
      headers: { ...LIVE_ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'nmexpl_never_started@localhost', cookie: 'c' }),
    });
    const { id, state } = (await added.json()) as { id: string; state: string };
    expect(state).not.toBe('UP');
    expect(await get<ErrorReply>(`/api/explorer/node/${id}/processes`)).toEqual({
      status: 409,
      body: { error: 'node_not_up' },
    });
  }, 30_000);
});
