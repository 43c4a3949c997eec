import { afterAll, describe, expect, it } from 'vitest';
import { liveErl, startErlNode, uniqueAlive, type ErlNode } from '../connections/test-support/erl-node.js';
import { LIVE_ADMIN, useLiveNodeManager } from '../test-support/live-node-manager.js';
import { pollUntil } from '../test-support/poll-until.js';

const suite = liveErl.available || liveErl.required ? describe : describe.skip;
const title =
  liveErl.available || liveErl.required
    ? 'kernel metrics and node_down of real Erlang nodes'
    : 'kernel metrics and node_down of real Erlang nodes (skipped: install erlang-base)';

suite(title, () => {
  const live = useLiveNodeManager({ alarmPollMs: 100, metricsPollMs: 100, nodeDownAlarmAfterMs: 300 });
  const auth = LIVE_ADMIN;
  const nodes: ErlNode[] = [];
  afterAll(() => Promise.all(nodes.map((n) => n.kill())));

  async function metricsText(headers: Record<string, string> = auth): Promise<string> {
    return (await fetch(`${live.server.url}/metrics`, { headers })).text();
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

  it('exports kernel metrics under prometheus.erl names at /metrics, behind auth, off with the plugin', async () => {
    const node = await startErlNode(uniqueAlive('nmmet'), 'metcookie', { long: true });
    nodes.push(node);
    const nodeId = await addUp(node);
    const label = `node="${node.name}"`;
    const text = await pollUntil(
      async () => {
        const body = await metricsText();
        return body.includes(`erlang_vm_process_count{${label}}`) ? body : undefined;
      },
      8_000,
      'metrics of the node',
    );
    const value = (series: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? NaN : Number(line.slice(series.length + 1));
    };
    expect(text).toContain('# TYPE erlang_vm_memory_bytes_total gauge');
    expect(text).toContain('# TYPE erlang_vm_statistics_reductions_total counter');
    const processes = value(`erlang_vm_process_count{${label}}`);
    expect(processes).toBeGreaterThan(10);
    expect(value(`erlang_vm_process_limit{${label}}`)).toBeGreaterThan(processes);
    expect(value(`erlang_vm_memory_bytes_total{${label},kind="processes"}`)).toBeGreaterThan(100_000);
    expect(value(`erlang_vm_memory_bytes_total{${label},kind="system"}`)).toBeGreaterThan(1_000_000);
    expect(value(`erlang_vm_atom_limit{${label}}`)).toBeGreaterThan(value(`erlang_vm_atom_count{${label}}`));
    expect(value(`erlang_vm_port_limit{${label}}`)).toBeGreaterThan(value(`erlang_vm_port_count{${label}}`));
    expect(value(`erlang_vm_ets_tables{${label}}`)).toBeGreaterThan(5);
    expect(value(`triad_node_uptime_seconds{${label}}`)).toBeGreaterThan(0);
    expect(value(`erlang_vm_statistics_wallclock_time_milliseconds{${label}}`)).toBeGreaterThan(0);
    for (const usage of ['atom', 'binary', 'code', 'ets', 'other'])
      expect(value(`erlang_vm_memory_system_bytes_total{${label},usage="${usage}"}`)).toBeGreaterThan(0);
    expect(value(`triad_node_up{${label}}`)).toBe(1);
    // The service's own metrics: process (prom-client) and HTTP requests (the scrapes above).
    const own = await metricsText();
    expect(own).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(own).toMatch(
      /^http_request_duration_seconds_count\{method="GET",route="\/metrics",status_code="200"\} \d+$/m,
    );
    expect((await fetch(`${live.server.url}/metrics`)).status).toBe(401);

    await setPlugin(nodeId, 'wombat_plugin_builtin_metrics', 'off');
    await pollUntil(
      async () => ((await metricsText()).includes(`erlang_vm_process_count{${label}}`) ? undefined : true),
      8_000,
      'the series to leave /metrics',
    );
    expect(await metricsText()).toContain(`triad_node_up{${label}} 1`);
    await setPlugin(nodeId, 'wombat_plugin_builtin_metrics', 'on');
    await pollUntil(
      async () => ((await metricsText()).includes(`erlang_vm_atom_count{${label}}`) ? true : undefined),
      8_000,
      'the series to return',
    );
  }, 40_000);

  it('reads the run queue of an idle node without counting its own calls (0 or 1 in every sample)', async () => {
    const node = await startErlNode(uniqueAlive('nmrunq'), 'runqcookie', { long: true });
    nodes.push(node);
    await addUp(node);
    const series = `erlang_vm_statistics_run_queues_length_total{node="${node.name}"}`;
    const clock = `erlang_vm_statistics_wallclock_time_milliseconds{node="${node.name}"}`;
    const readings: number[] = [];
    let lastClock = '';
    // Twenty distinct samples (the wall clock differs in each), taken while the SASL and crash
    // collectors poll the same node every 100 ms as well.
    await pollUntil(
      async () => {
        const lines = (await metricsText()).split('\n');
        const at = lines.find((l) => l.startsWith(`${clock} `));
        const queue = lines.find((l) => l.startsWith(`${series} `));
        if (at !== undefined && queue !== undefined && at !== lastClock) {
          lastClock = at;
          readings.push(Number(queue.slice(series.length + 1)));
        }
        return readings.length >= 20 ? true : undefined;
      },
      20_000,
      'twenty run queue samples',
    );
    expect(readings.every((r) => Number.isInteger(r) && r >= 0)).toBe(true);
    expect(Math.max(...readings)).toBeLessThanOrEqual(1);
  }, 40_000);

  it('says in plain words that a killed node is down and sets triad_node_up to 0', async () => {
    const node = await startErlNode(uniqueAlive('nmstop'), 'stopcookie');
    nodes.push(node);
    const nodeId = await addUp(node);
    await node.kill();
    const alarm = await pollUntil(
      async () => {
        const { alarms } = (await (
          await fetch(`${live.server.url}/api/alarm?limit=100`, { headers: auth })
        ).json()) as {
          alarms: { alarmId: string; additionalInformation: string; src: { nodeId: string } }[];
        };
        return alarms.find((a) => a.alarmId === 'node_down' && a.src.nodeId === nodeId);
      },
      8_000,
      'node_down',
    );
    // kill -9 of a node seen UP: DOWN, and still DOWN once the host's EPMD has forgotten it (0038).
    expect(alarm.additionalInformation).toBe(
      `Node ${node.name} is down: it has been unreachable for 300 milliseconds.`,
    );
    expect(await metricsText()).toContain(`triad_node_up{node="${node.name}"} 0`);
  }, 40_000);
});
