import { atom, string, tuple } from '@triad/erlang-dist';
import { afterAll, describe, expect, it } from 'vitest';
import { alarmSourceText } from '../model/erlang-terms.js';
import { NodeConnection } from '../connections/node-connection.js';
import { liveErl, startErlNode, uniqueAlive, type ErlNode } from '../connections/test-support/erl-node.js';
import { LIVE_ADMIN, useLiveNodeManager } from '../test-support/live-node-manager.js';
import { pollUntil } from '../test-support/poll-until.js';

const suite = liveErl.available || liveErl.required ? describe : describe.skip;
const title =
  liveErl.available || liveErl.required
    ? 'monitoring of real Erlang nodes'
    : 'monitoring of real Erlang nodes (skipped: install erlang-base)';

interface ListedAlarm {
  alarmId: string;
  severity: string;
  additionalInformation: string;
  rawSrc: string;
  src: { nodeId: string; nodeName: string; custom: string; elarmServer: string };
}

suite(title, () => {
  const live = useLiveNodeManager({ alarmPollMs: 100, metricsPollMs: 100, nodeDownAlarmAfterMs: 300 });
  const auth = LIVE_ADMIN;
  const nodes: ErlNode[] = [];
  afterAll(() => Promise.all(nodes.map((n) => n.kill())));

  async function alarms(): Promise<ListedAlarm[]> {
    return (
      (await (await fetch(`${live.server.url}/api/alarm?limit=100`, { headers: auth })).json()) as {
        alarms: ListedAlarm[];
      }
    ).alarms;
  }
  const addUp = (node: ErlNode) => live.addUp(node);
  async function setPlugin(nodeId: string, plugin: string, state: 'on' | 'off'): Promise<void> {
    const r = await fetch(`${live.server.url}/api/plugins/node/${nodeId}/plugin/${plugin}`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ plugin_state: state }),
    });
    expect(r.status).toBe(200);
  }

  it('raises node_down (major) for a node unreachable past the set time, clears it when the node is back', async () => {
    const alive = uniqueAlive('nmdown');
    const node = await startErlNode(alive, 'downcookie');
    nodes.push(node);
    const nodeId = await addUp(node);
    expect((await alarms()).some((a) => a.alarmId === 'node_down' && a.src.nodeId === nodeId)).toBe(false);

    await node.kill();
    const alarm = await pollUntil(
      async () => (await alarms()).find((a) => a.alarmId === 'node_down' && a.src.nodeId === nodeId),
      8_000,
      'node_down',
    );
    expect(alarm.severity).toBe('major');
    expect(alarm.src).toEqual({ nodeId, nodeName: node.name, custom: 'node_level', elarmServer: 'wombat' });
    expect(alarm.rawSrc).toBe(alarmSourceText(nodeId, node.name, 'node_level', 'wombat'));
    expect(alarm.additionalInformation).toBe(
      `Node ${node.name} is down: it has been unreachable for 300 milliseconds.`,
    );

    const again = await startErlNode(alive, 'downcookie');
    nodes.push(again);
    await pollUntil(
      async () =>
        (await alarms()).some((a) => a.alarmId === 'node_down' && a.src.nodeId === nodeId) ? undefined : true,
      15_000,
      'node_down to clear',
    );
  }, 40_000);

  it('raises SASL alarms set on the node and clears them when cleared there, and stops with the plugin', async () => {
    const node = await startErlNode(uniqueAlive('nmsasl'), 'saslcookie');
    nodes.push(node);
    const nodeId = await addUp(node);
    const direct = await NodeConnection.open({
      node: node.name,
      cookie: node.cookie,
      localName: `${uniqueAlive('nmtest')}@localhost`,
    });
    try {
      // A node registers with EPMD before its boot has finished; until then application:start
      // answers {error,{not_started,kernel}}. Retry for a while instead of racing the boot.
      let started = await direct.rpc('application', 'start', [atom('sasl')]);
      for (let i = 0; i < 50 && started.type !== 'atom'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        started = await direct.rpc('application', 'start', [atom('sasl')]);
      }
      expect(started).toEqual(atom('ok'));
      await direct.rpc('alarm_handler', 'set_alarm', [tuple(atom('my_alarm'), string('detail'))]);
      const alarm = await pollUntil(
        async () => (await alarms()).find((a) => a.alarmId === 'my_alarm' && a.src.nodeId === nodeId),
        8_000,
        'my_alarm',
      );
      expect(alarm.severity).toBe('indeterminate');
      expect(alarm.additionalInformation).toBe('detail');
      expect(alarm.src).toEqual({ nodeId, nodeName: node.name, custom: 'node_level', elarmServer: 'wombat' });
      expect(alarm.rawSrc).toBe(alarmSourceText(nodeId, node.name, 'node_level', 'wombat'));

      await direct.rpc('alarm_handler', 'clear_alarm', [atom('my_alarm')]);
      await pollUntil(
        async () =>
          (await alarms()).some((a) => a.alarmId === 'my_alarm' && a.src.nodeId === nodeId) ? undefined : true,
        8_000,
        'my_alarm to clear',
      );

      // Off: what the collector raised is cleared and nothing new is read; on: it reads again.
      await direct.rpc('alarm_handler', 'set_alarm', [
        tuple(tuple(atom('disk_almost_full'), string('/data')), string('x')),
      ]);
      await pollUntil(
        async () => (await alarms()).find((a) => a.alarmId === '{disk_almost_full,"/data"}' && a.src.nodeId === nodeId),
        8_000,
        'the disk alarm',
      );
      await setPlugin(nodeId, 'wombat_plugin_sasl', 'off');
      await pollUntil(
        async () => ((await alarms()).some((a) => a.src.nodeId === nodeId) ? undefined : true),
        8_000,
        'the alarms of a switched-off collector to clear',
      );
      await setPlugin(nodeId, 'wombat_plugin_sasl', 'on');
      await pollUntil(
        async () => (await alarms()).find((a) => a.alarmId === '{disk_almost_full,"/data"}' && a.src.nodeId === nodeId),
        8_000,
        'the disk alarm again',
      );
    } finally {
      direct.close();
    }
  }, 40_000);
});
