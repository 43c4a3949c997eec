import { describe, expect, it } from 'vitest';
import { liveErl, startErlNode } from '../connections/test-support/erl-node.js';
import { pollUntil } from '../test-support/poll-until.js';
import { useLiveNodeManager } from '../test-support/live-node-manager.js';
import { textOf } from './erlang-expression.js';

const suite = liveErl.available || liveErl.required ? describe : describe.skip;
const title =
  liveErl.available || liveErl.required
    ? 'node facts and family consistency of real Erlang nodes'
    : 'node facts and family consistency of real Erlang nodes (skipped: install erlang-base)';

interface NodeReply {
  id: string;
  state: string;
  node_family_id: string;
  otp_release: string | null;
  erts_version: string | null;
  uptime_ms: number | null;
  process_count: number | null;
  total_memory: number | null;
}

suite(title, () => {
  const live = useLiveNodeManager({ alarmPollMs: 60_000, metricsPollMs: 100, limitAlarmPollMs: 60_000 });
  const { get, alarmsOf, untilAlarms } = live;
  async function startAndAdd(prefix: string) {
    const { node, run } = await live.startNode(prefix);
    return { node, run, id: await live.addUp(node) };
  }
  const nodeReply = async (id: string) => (await get<NodeReply>(`/api/topo/node/${id}`)).body;

  it('shows OTP release, ERTS version, uptime, process count and memory of UP nodes, with applications', async () => {
    const a = await startAndAdd('nmfacts');
    const node = await pollUntil(
      async () => {
        const reply = await nodeReply(a.id);
        return reply.otp_release !== null ? reply : undefined;
      },
      10_000,
      'the facts of the node',
    );
    expect(node.otp_release).toBe(textOf(await a.run('erlang:system_info(otp_release).')));
    expect(node.erts_version).toBe(textOf(await a.run('erlang:system_info(version).')));
    expect(node.erts_version).toMatch(/^\d+\.\d+/);
    expect(node.uptime_ms).toBeGreaterThan(0);
    expect(node.process_count).toBeGreaterThan(10);
    expect(node.total_memory).toBeGreaterThan(1_000_000);
    const listed = (await get<NodeReply[]>('/api/topo/node')).body.find((n) => n.id === a.id);
    expect(listed?.otp_release).toBe(node.otp_release);

    const info = await get<{ node: NodeReply; applications: { name: string; version: string }[] }>(
      `/api/topo/node/${a.id}/info`,
    );
    expect(info.status).toBe(200);
    expect(info.body.node.id).toBe(a.id);
    const kernel = textOf(await a.run('{ok, V} = application:get_key(kernel, vsn), V.'));
    expect(info.body.applications).toContainEqual({ name: 'kernel', description: 'ERTS  CXC 138 10', version: kernel });
    expect(info.body.applications.map((x) => x.name)).toContain('stdlib');
    expect((await get('/api/topo/node/no-such-node/info')).status).toBe(404);

    await a.node.kill();
    await pollUntil(
      async () => ((await nodeReply(a.id)).state !== 'UP' ? true : undefined),
      10_000,
      'the node to leave UP',
    );
    const down = await nodeReply(a.id);
    expect([down.otp_release, down.erts_version, down.uptime_ms, down.process_count, down.total_memory]).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    expect((await get<{ applications: unknown[] }>(`/api/topo/node/${a.id}/info`)).body.applications).toEqual([]);
  }, 60_000);

  it('raises missing_application and different_application_versions between the nodes of one family', async () => {
    const a = await startAndAdd('nmfama');
    const b = await startAndAdd('nmfamb');
    expect((await nodeReply(b.id)).node_family_id).toBe((await nodeReply(a.id)).node_family_id);
    await pollUntil(
      async () => ((await nodeReply(b.id)).otp_release !== null ? true : undefined),
      10_000,
      'facts of both nodes',
    );
    expect(await alarmsOf(a.id)).toEqual([]);

    // b runs an application a does not: a misses it.
    expect((await b.run('application:start(crypto).')).type).toBe('atom');
    const [missing] = await untilAlarms(a.id, ['missing_application'], 'missing_application on a');
    expect(missing!.severity).toBe('warning');
    expect(missing!.src.custom).toBe('family_consistency');
    expect(missing!.additionalInformation).toBe('missing: crypto (on 1 other node)');
    expect(await alarmsOf(b.id)).toEqual([]);
    expect((await get<{ sources: string[] }>('/api/alarm/source')).body.sources).toContain('family_consistency');

    // The same application at two versions (an application without code, loaded from its spec).
    const spec = (vsn: string) =>
      `application:load({application, triad_probe, [{vsn, "${vsn}"}, {applications, [kernel]}]}), ` +
      'application:start(triad_probe).';
    await a.run(spec('1.0'));
    await b.run(spec('2.0'));
    const [different] = await untilAlarms(a.id, ['different_application_versions', 'missing_application'], 'both');
    expect(
      (await alarmsOf(a.id)).find((x) => x.alarmId === 'different_application_versions')?.additionalInformation,
    ).toBe('different versions: triad_probe 1.0 (others: 2.0)');
    expect(different).toBeDefined();
    await untilAlarms(b.id, ['different_application_versions'], 'different_application_versions on b');

    // Consistent again: everything clears.
    await b.run('application:stop(crypto), application:stop(triad_probe), application:unload(triad_probe).');
    await a.run('application:stop(triad_probe), application:unload(triad_probe).');
    await untilAlarms(a.id, [], 'the alarms of a to clear');
    await untilAlarms(b.id, [], 'the alarms of b to clear');

    // A node that goes down leaves the comparison: its sibling's alarm about it clears.
    await b.run('application:start(crypto).');
    await untilAlarms(a.id, ['missing_application'], 'missing_application again');
    await b.node.kill();
    await untilAlarms(a.id, [], 'the alarm to clear once b is down');
  }, 60_000);

  it('raises no consistency alarm while a restarted sibling is still booting', async () => {
    const a = await startAndAdd('nmboota');
    const b = await startAndAdd('nmbootb');
    await pollUntil(
      async () => ((await nodeReply(b.id)).otp_release !== null ? true : undefined),
      10_000,
      'facts of both nodes',
    );
    await b.node.kill();
    await pollUntil(async () => ((await nodeReply(b.id)).state !== 'UP' ? true : undefined), 10_000, 'b to leave UP');
    // The same node again, booting slowly: its kernel waits 3 s for a peer that never comes, while
    // distribution already answers and no application has started yet.
    const again = await startErlNode(b.node.alive, b.node.cookie, {
      extraArgs: ['-kernel', 'sync_nodes_optional', "['nobody@nohost']", '-kernel', 'sync_nodes_timeout', '3000'],
    });
    try {
      await pollUntil(async () => ((await nodeReply(b.id)).state === 'UP' ? true : undefined), 10_000, 'b UP again');
      const seen = new Set<string>();
      let booted = false;
      for (const until = Date.now() + 12_000; Date.now() < until && !booted;) {
        for (const alarm of [...(await alarmsOf(a.id)), ...(await alarmsOf(b.id))]) seen.add(alarm.alarmId);
        const info = await get<{ applications: { name: string }[] }>(`/api/topo/node/${b.id}/info`);
        booted = info.body.applications.some((x) => x.name === 'stdlib');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(booted).toBe(true);
      // A few more reads of both nodes once b runs everything a runs.
      await new Promise((resolve) => setTimeout(resolve, 500));
      for (const alarm of [...(await alarmsOf(a.id)), ...(await alarmsOf(b.id))]) seen.add(alarm.alarmId);
      expect([...seen]).toEqual([]);
    } finally {
      await again.kill();
    }
  }, 60_000);

  it('clears, after a restart of the service, a consistency alarm an earlier run raised', async () => {
    const a = await startAndAdd('nmrsta');
    const b = await startAndAdd('nmrstb');
    expect((await b.run('application:start(crypto).')).type).toBe('atom');
    await untilAlarms(a.id, ['missing_application'], 'missing_application before the restart');
    await live.restart(() => b.run('application:stop(crypto).'));
    await untilAlarms(a.id, [], 'the alarm of the earlier run to clear');
  }, 60_000);
});
