import { atom, list, string, tuple } from '@triad/erlang-dist';
import { describePostgresOnly } from '@triad/db/testing';
import type { Database } from '@triad/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { liveErl, waitFor } from '../connections/test-support/erl-node.js';
import type { NodeManagerDatabase } from '../repositories/node-manager-tables.js';
import {
  getJson,
  healthOf,
  NodeManagerCluster,
  untilShared,
  type ClusterMember,
  type SharedNode,
} from '../test-support/node-manager-cluster.js';
import { LIVE_ADMIN } from '../test-support/live-node-manager.js';
import { pollUntil } from '../test-support/poll-until.js';

const withErl = liveErl.available || liveErl.required;

interface ListedAlarm {
  alarmId: string;
  src: { nodeId: string };
}

interface Frame {
  type: string;
  action?: string;
  alarm?: ListedAlarm;
}

/** A WebSocket client of one instance's live updates, and every frame it got. */
async function openLive(member: ClusterMember, passFrom: ClusterMember): Promise<{ frames: Frame[]; close(): void }> {
  const pass = await getJson<string>(passFrom, '/api/users/pass');
  const socket = new WebSocket(`${member.url.replace(/^http/, 'ws')}/api/core/ws`);
  const frames: Frame[] = [];
  socket.on('message', (data: Buffer) => frames.push(JSON.parse(String(data)) as Frame));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(`auth=admin;websocket_pass=${pass}`);
  await waitFor(() => frames.some((f) => f.type === 'authenticated'), 5_000, 'auth');
  return { frames, close: () => socket.terminate() };
}

/** How many alarm rows are stored for a node and alarm id, cleared ones included. */
async function alarmRows(database: Database<NodeManagerDatabase>, nodeId: string, alarmId: string): Promise<number> {
  const rows = await database.db
    .selectFrom('nm_alarms')
    .select('event_us')
    .where('node_id', '=', nodeId)
    .where('alarm_id', '=', alarmId)
    .execute();
  return rows.length;
}

const raisedFrames = (frames: readonly Frame[], alarmId: string, nodeId: string) =>
  frames.filter(
    (f) => f.type === 'alarm' && f.action === 'raised' && f.alarm?.alarmId === alarmId && f.alarm.src.nodeId === nodeId,
  ).length;

/** Registers `body` on PostgreSQL with Erlang; skipped saying what to install otherwise. */
function describeWithErlAndPostgres(
  title: string,
  body: (getDb: () => Database<NodeManagerDatabase>, url: string) => void,
): void {
  if (withErl) describePostgresOnly<NodeManagerDatabase>(title, body);
  else describe.skip(`${title} (skipped: install erlang-base)`, () => {});
}

describeWithErlAndPostgres('several node managers on one PostgreSQL schema', (getDb, url) => {
  let cluster: NodeManagerCluster;
  let a: ClusterMember;
  let b: ClusterMember;
  let c: ClusterMember;
  const nodes: SharedNode[] = [];
  let live: { frames: Frame[]; close(): void } = { frames: [], close: () => {} };
  const ownedBy = (member: ClusterMember, owners: Map<string, string>) =>
    nodes.filter((n) => owners.get(n.id) === member.instance);

  beforeAll(async () => {
    const database = getDb();
    cluster = new NodeManagerCluster(url, database.schema ?? '');
    a = await cluster.startHere();
    b = await cluster.startProcess();
    c = await cluster.startHere();
  }, 180_000);
  afterAll(async () => {
    live.close();
    await cluster?.close();
  }, 60_000);

  it('gives every node to exactly one instance, and every instance shows the same nodes', async () => {
    let owners = new Map<string, string>();
    // Adds through A and C in turn until B owns two nodes and A and C one each (at most 20: on a
    // loaded machine B may join the ring late).
    while (nodes.length < 20) {
      const node = await cluster.startNode('nmshare');
      await cluster.add(nodes.length % 2 === 0 ? a : c, node);
      nodes.push(node);
      owners = await untilShared(
        getDb(),
        [a, b, c],
        nodes.map((n) => n.id),
        `${nodes.length} nodes shared`,
      );
      if (ownedBy(b, owners).length >= 2 && ownedBy(a, owners).length >= 1 && ownedBy(c, owners).length >= 1) break;
    }
    expect(ownedBy(b, owners).length).toBeGreaterThanOrEqual(2);
    const counts = await Promise.all([a, b, c].map(async (m) => (await healthOf(m)).nodesOwned));
    expect(counts.reduce((x, y) => x + y, 0)).toBe(nodes.length);
    for (const member of [a, b, c]) {
      const listed = await getJson<{ id: string; state: string }[]>(member, '/api/topo/node');
      expect(listed.map((n) => n.id).sort()).toEqual(nodes.map((n) => n.id).sort());
      // Node states are recorded by the owners; every instance shows them.
      await pollUntil(
        async () =>
          (await getJson<{ state: string }[]>(member, '/api/topo/node')).every((n) => n.state === 'UP')
            ? true
            : undefined,
        10_000,
        'every node UP',
      );
    }
    expect((await healthOf(a)).status).toBe('ok');
  }, 180_000);

  it('pushes to a WebSocket client of one instance the alarms another raises, with a pass from a third', async () => {
    const owners = await untilShared(
      getDb(),
      [a, b, c],
      nodes.map((n) => n.id),
      'nodes shared',
    );
    const [onB] = ownedBy(b, owners);
    if (!onB) throw new Error('B owns no node');
    live = await openLive(a, c);
    await onB.direct.rpc('alarm_handler', 'set_alarm', [tuple(atom('nm_share_a'), string('on B'))]);
    await waitFor(
      () => raisedFrames(live.frames, 'nm_share_a', onB.id) === 1,
      15_000,
      'the alarm on the WebSocket of A',
    );
    // REST on an instance that does not own the node lists it too.
    const listed = await getJson<{ alarms: ListedAlarm[] }>(c, '/api/alarm?limit=100');
    expect(listed.alarms.some((x) => x.alarmId === 'nm_share_a' && x.src.nodeId === onB.id)).toBe(true);
  }, 60_000);

  it('shows facts on every instance and judges a family over the nodes of all instances', async () => {
    const owners = await untilShared(
      getDb(),
      [a, b, c],
      nodes.map((n) => n.id),
      'nodes shared',
    );
    const [onA] = ownedBy(a, owners);
    const [onB] = ownedBy(b, owners);
    if (!onA || !onB) throw new Error('A or B owns no node');
    // Facts read by B are shown by A and C, which do not own the node.
    for (const member of [a, c]) {
      const shown = await pollUntil(
        async () => {
          const node = await getJson<{ otp_release: string | null }>(member, `/api/topo/node/${onB.id}`);
          return node.otp_release ?? undefined;
        },
        15_000,
        'the facts of a node owned by B',
      );
      expect(shown).toMatch(/^\d+$/);
    }
    // One node of A runs an application the others lack: every other node, whoever owns it, gets
    // missing_application, once.
    const others = nodes.filter((n) => n !== onA);
    await onA.direct.rpc('application', 'load', [
      tuple(
        atom('application'),
        atom('nm_extra'),
        list([tuple(atom('vsn'), string('1')), tuple(atom('applications'), list([atom('kernel'), atom('stdlib')]))]),
      ),
    ]);
    expect(await onA.direct.rpc('application', 'start', [atom('nm_extra')])).toEqual(atom('ok'));
    await pollUntil(
      async () => {
        const { alarms } = await getJson<{ alarms: ListedAlarm[] }>(c, '/api/alarm?limit=1000');
        const on = new Set(alarms.filter((x) => x.alarmId === 'missing_application').map((x) => x.src.nodeId));
        return others.every((n) => on.has(n.id)) && !on.has(onA.id) ? true : undefined;
      },
      20_000,
      'missing_application on every other node',
    );
    await onA.direct.rpc('application', 'stop', [atom('nm_extra')]);
    await pollUntil(
      async () => {
        const { alarms } = await getJson<{ alarms: ListedAlarm[] }>(a, '/api/alarm?limit=1000');
        return alarms.some((x) => x.alarmId === 'missing_application') ? undefined : true;
      },
      20_000,
      'missing_application cleared everywhere',
    );
    for (const node of others) expect(await alarmRows(getDb(), node.id, 'missing_application')).toBe(1);
  }, 90_000);

  it('hands the nodes of a killed instance to the others, losing and repeating no alarm', async () => {
    const owners = await untilShared(
      getDb(),
      [a, b, c],
      nodes.map((n) => n.id),
      'nodes shared',
    );
    const [withAlarm, goingDown] = ownedBy(b, owners);
    if (!withAlarm || !goingDown) throw new Error('B owns fewer than two nodes');
    // B raises node_down for a node it owns, then dies.
    await goingDown.node.kill();
    await waitFor(() => raisedFrames(live.frames, 'node_down', goingDown.id) === 1, 15_000, 'node_down raised by B');
    await b.stop();
    // Set while no instance monitors the node: its new owner must raise it.
    await withAlarm.direct.rpc('alarm_handler', 'set_alarm', [tuple(atom('nm_share_b'), string('while B is dead'))]);
    await untilShared(
      getDb(),
      [a, c],
      nodes.map((n) => n.id),
      'the nodes of B taken over',
      30_000,
    );
    await waitFor(
      () => raisedFrames(live.frames, 'nm_share_b', withAlarm.id) === 1,
      15_000,
      'the alarm set while B was dead',
    );
    // Time for a wrongly repeated raise to happen: a few polls and a node_down delay.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const database = getDb();
    expect(await alarmRows(database, withAlarm.id, 'nm_share_a')).toBe(1);
    expect(await alarmRows(database, withAlarm.id, 'nm_share_b')).toBe(1);
    expect(await alarmRows(database, goingDown.id, 'node_down')).toBe(1);
    for (const other of nodes.filter((n) => n !== goingDown))
      expect(await alarmRows(database, other.id, 'node_down')).toBe(0);
    expect(raisedFrames(live.frames, 'nm_share_a', withAlarm.id)).toBe(1);
    expect(raisedFrames(live.frames, 'nm_share_b', withAlarm.id)).toBe(1);
    expect(raisedFrames(live.frames, 'node_down', goingDown.id)).toBe(1);
    // The node_down of the dead node stays active; the others are UP again under their new owners.
    const states = await getJson<{ id: string; state: string }[]>(a, '/api/topo/node');
    expect(
      states
        .filter((n) => n.state === 'UP')
        .map((n) => n.id)
        .sort(),
    ).toEqual(
      nodes
        .filter((n) => n !== goingDown)
        .map((n) => n.id)
        .sort(),
    );
  }, 120_000);

  it('clears the alarms of a node deleted through an instance that does not own it', async () => {
    const owners = await untilShared(
      getDb(),
      [a, c],
      nodes.map((n) => n.id),
      'nodes shared by A and C',
    );
    const target = nodes.find(
      (n) => owners.get(n.id) === c.instance && n.node.child.exitCode === null && n.node.child.signalCode === null,
    );
    if (!target) throw new Error('C owns no live node');
    await target.direct.rpc('alarm_handler', 'set_alarm', [tuple(atom('nm_share_c'), string('to be deleted'))]);
    await waitFor(() => raisedFrames(live.frames, 'nm_share_c', target.id) === 1, 15_000, 'the alarm on C');
    const deleted = await fetch(`${a.url}/api/topo/node/${target.id}`, { method: 'DELETE', headers: LIVE_ADMIN });
    expect(deleted.status).toBe(204);
    const left = nodes.filter((n) => n !== target).map((n) => n.id);
    await untilShared(getDb(), [a, c], left, 'the deleted node out of the leases');
    await pollUntil(
      async () => {
        const { alarms } = await getJson<{ alarms: ListedAlarm[] }>(a, '/api/alarm?limit=1000');
        return alarms.some((x) => x.src.nodeId === target.id) ? undefined : true;
      },
      15_000,
      'the alarms of the deleted node cleared',
    );
    expect(await alarmRows(getDb(), target.id, 'nm_share_c')).toBe(1);
  }, 60_000);
});

describeWithErlAndPostgres('twenty real Erlang nodes shared by two node managers, one killed', (getDb, url) => {
  let cluster: NodeManagerCluster;
  let a: ClusterMember;
  let b: ClusterMember;
  const nodes: SharedNode[] = [];

  beforeAll(async () => {
    cluster = new NodeManagerCluster(url, getDb().schema ?? '');
    a = await cluster.startHere();
    b = await cluster.startProcess();
    // Five at a time: 20 beam processes starting at once would crowd a small machine.
    for (let batch = 0; batch < 4; batch++)
      nodes.push(...(await Promise.all(Array.from({ length: 5 }, () => cluster.startNode('nmtwenty')))));
  }, 240_000);
  afterAll(async () => {
    await cluster?.close();
  }, 60_000);

  it('splits the 20 nodes between both, then gives all to the survivor, which monitors each', async () => {
    for (const [i, node] of nodes.entries()) await cluster.add(i % 2 === 0 ? a : b, node);
    const ids = nodes.map((n) => n.id);
    const owners = await untilShared(getDb(), [a, b], ids, '20 nodes shared by two');
    const onB = nodes.filter((n) => owners.get(n.id) === b.instance);
    expect(onB.length).toBeGreaterThan(0);
    expect(onB.length).toBeLessThan(20);

    await b.stop();
    await untilShared(getDb(), [a], ids, 'the nodes of the killed instance taken over', 30_000);
    // A reads each node it took over: an alarm set on every one of them is raised, once.
    for (const node of onB) {
      await node.direct.rpc('alarm_handler', 'set_alarm', [tuple(atom('nm_twenty'), string(node.node.name))]);
    }
    const raised = await pollUntil(
      async () => {
        const { alarms } = await getJson<{ alarms: ListedAlarm[] }>(a, '/api/alarm?limit=1000');
        const found = alarms.filter((x) => x.alarmId === 'nm_twenty').map((x) => x.src.nodeId);
        return found.length === onB.length ? found : undefined;
      },
      30_000,
      'an alarm from every node taken over',
    );
    expect(raised.sort()).toEqual(onB.map((n) => n.id).sort());
    const states = await getJson<{ state: string }[]>(a, '/api/topo/node');
    expect(states.every((n) => n.state === 'UP')).toBe(true);
    // No node went down: changing owner raised no node_down.
    for (const node of nodes) expect(await alarmRows(getDb(), node.id, 'node_down')).toBe(0);
  }, 180_000);
});
