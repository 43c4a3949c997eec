import { describe, expect, it } from 'vitest';
import { liveErl } from '../connections/test-support/erl-node.js';
import { LIVE_ADMIN, useLiveNodeManager } from '../test-support/live-node-manager.js';
import { pollUntil } from '../test-support/poll-until.js';
import { alarmSourceText } from '../model/erlang-terms.js';

const suite = liveErl.available || liveErl.required ? describe : describe.skip;
const title =
  liveErl.available || liveErl.required
    ? 'system-limit alarms of real Erlang nodes'
    : 'system-limit alarms of real Erlang nodes (skipped: install erlang-base)';

suite(title, () => {
  const live = useLiveNodeManager({ alarmPollMs: 100, metricsPollMs: 60_000, limitAlarmPollMs: 100 });
  const { get, untilAlarms, addUp } = live;
  const sources = async () => (await get<{ sources: string[] }>('/api/alarm/source')).body.sources;
  const startNode = (prefix: string, extraArgs: string[] = []) => live.startNode(prefix, extraArgs);

  it('raises process_limit_minor past 70 %, moves to major past 85 %, clears when the processes end', async () => {
    const { node, run } = await startNode('nmplim', ['+P', '1024']);
    const nodeId = await addUp(node);
    expect(await run('erlang:system_info(process_limit).')).toEqual({ type: 'integer', value: 1024 });
    expect(await sources()).not.toContain('process_limit');

    // Holders that keep children alive until they are killed (children are linked, so they die too).
    const hold = (name: string, count: number) =>
      run(
        `P = spawn(fun() -> [spawn_link(fun() -> receive stop -> ok end end) || _ <- lists:seq(1, ${count})],` +
          ` receive stop -> ok end end), register(${name}, P), ok.`,
      );
    const count = () => run('erlang:system_info(process_count).');
    const base = Number(((await count()) as { value: number }).value);
    await hold('triad_hold_a', 760 - base); // about 74 %
    const [minor] = await untilAlarms(nodeId, ['process_limit_minor'], 'process_limit_minor');
    expect(minor!.severity).toBe('minor');
    expect(minor!.threshold).toBe(70);
    expect(minor!.src).toEqual({ nodeId, nodeName: node.name, custom: 'process_limit', elarmServer: 'wombat' });
    expect(minor!.rawSrc).toBe(alarmSourceText(nodeId, node.name, 'process_limit', 'wombat'));
    expect(minor!.additionalInformation).toMatch(/^processes: \d+ of 1024 \(7\d\.\d %\)$/);
    expect(await sources()).toContain('process_limit');
    expect((await get<{ sources: string[] }>(`/api/alarm/source/node/${nodeId}`)).body.sources).toEqual([
      'node_level',
      'process_limit',
    ]);

    await hold('triad_hold_b', 150); // about 89 %
    const [major] = await untilAlarms(nodeId, ['process_limit_major'], 'process_limit_major');
    expect(major!.severity).toBe('major');
    expect(major!.threshold).toBe(85);

    await run('exit(whereis(triad_hold_a), kill), exit(whereis(triad_hold_b), kill), ok.');
    await untilAlarms(nodeId, [], 'the process alarms to clear');
    expect(await sources()).not.toContain('process_limit');
  }, 60_000);

  it('raises open_fd_limit_node_minor past 75 % of the file descriptors, major past 90 %, and clears', async () => {
    const { node, run } = await live.startNode('nmfds', [], { fdLimit: 128 });
    const nodeId = await addUp(node);
    // Holders of raw files: the descriptors close when the holder dies.
    const hold = (name: string, count: number) =>
      run(
        `P = spawn(fun() -> _ = [file:open("/dev/null", [read, raw]) || _ <- lists:seq(1, ${count})],` +
          ` receive stop -> ok end end), register(${name}, P), ok.`,
      );
    // The entries of /proc/self/fd less the one listing them, as the alarm reads them.
    const open = async () =>
      Number(((await run('length(element(2, file:list_dir("/proc/self/fd"))) - 1.')) as { value: number }).value);
    const base = await open();
    expect(base).toBeLessThan(60);
    expect(await sources()).not.toContain('open_fd_limit_node');

    await hold('triad_fds_a', 100 - base); // 100 of 128: 78 %
    const [minor] = await untilAlarms(nodeId, ['open_fd_limit_node_minor'], 'open_fd_limit_node_minor');
    expect(minor!.severity).toBe('minor');
    expect(minor!.threshold).toBe(75);
    expect(minor!.src.custom).toBe('open_fd_limit_node');
    expect(minor!.additionalInformation).toMatch(/^open file descriptors: \d+ of 128 \((7\d|8[0-9])\.\d %\)$/);
    expect(await sources()).toContain('open_fd_limit_node');

    await hold('triad_fds_b', 18); // 118 of 128: 92 %
    const [major] = await untilAlarms(nodeId, ['open_fd_limit_node_major'], 'open_fd_limit_node_major');
    expect(major!.threshold).toBe(90);

    await run('exit(whereis(triad_fds_a), kill), exit(whereis(triad_fds_b), kill), ok.');
    await untilAlarms(nodeId, [], 'the descriptor alarms to clear');
    // A raw file closes after its holder dies, on a dirty scheduler: the alarms clear below 75 %
    // before the last of the 118 has closed (34 of base 22 seen on a loaded CI machine).
    await pollUntil(async () => ((await open()) === base ? true : undefined), 10_000, `${base} descriptors again`);
  }, 60_000);

  it('names the process with a long message queue, clears it, and clears all when the node goes down', async () => {
    const { node, run } = await startNode('nmqueue');
    const nodeId = await addUp(node);
    await run(
      'P = spawn(fun() -> receive never_sent -> ok end end), register(triad_sink, P),' +
        ' [P ! {m, I} || I <- lists:seq(1, 6000)], ok.',
    );
    const [minor] = await untilAlarms(nodeId, ['process_message_queue_minor'], 'the message queue alarm');
    expect(minor!.severity).toBe('minor');
    expect(minor!.src.custom).toBe('process_message_queue');
    // A sample may be taken while the 6000 messages are still being sent: at least the 5000 of the
    // minor level, at most all of them.
    const queued = /^longest message queue: <0\.\d+\.0> \(triad_sink\), (\d+) messages$/.exec(
      String(minor!.additionalInformation),
    );
    expect(queued).not.toBeNull();
    expect(Number(queued![1])).toBeGreaterThanOrEqual(5000);
    expect(Number(queued![1])).toBeLessThanOrEqual(6000);

    await run('[whereis(triad_sink) ! {m, I} || I <- lists:seq(1, 15000)], ok.');
    await untilAlarms(nodeId, ['process_message_queue_major'], 'the major message queue alarm');
    await run('exit(whereis(triad_sink), kill), ok.');
    await untilAlarms(nodeId, [], 'the message queue alarm to clear');

    // Again, then the node goes down: every threshold alarm of it clears.
    await run(
      'P = spawn(fun() -> receive never_sent -> ok end end), register(triad_sink2, P),' +
        ' [P ! {m, I} || I <- lists:seq(1, 6000)], ok.',
    );
    await untilAlarms(nodeId, ['process_message_queue_minor'], 'the message queue alarm again');
    expect(await sources()).toContain('process_message_queue');
    await node.kill();
    await untilAlarms(nodeId, [], 'the alarms of a node gone down to clear');
    expect(await sources()).not.toContain('process_message_queue');
  }, 60_000);

  it('stops with wombat_plugin_alarm: off clears its alarms and raises nothing, on raises again', async () => {
    const { node, run } = await startNode('nmplug');
    const nodeId = await addUp(node);
    await run(
      'P = spawn(fun() -> receive never_sent -> ok end end), register(triad_sink, P),' +
        ' [P ! {m, I} || I <- lists:seq(1, 6000)], ok.',
    );
    await untilAlarms(nodeId, ['process_message_queue_minor'], 'the message queue alarm');
    const set = async (state: string) => {
      const r = await fetch(`${live.server.url}/api/plugins/node/${nodeId}/plugin/wombat_plugin_alarm`, {
        method: 'PUT',
        headers: { ...LIVE_ADMIN, 'content-type': 'application/json' },
        body: JSON.stringify({ plugin_state: state }),
      });
      expect(r.status).toBe(200);
    };
    await set('off');
    await untilAlarms(nodeId, [], 'the alarms of a switched-off plugin to clear');
    await set('on');
    await untilAlarms(nodeId, ['process_message_queue_minor'], 'the alarm once the plugin is on again');
  }, 60_000);
});

const modulesTitle =
  liveErl.available || liveErl.required
    ? 'module and export table alarms of real Erlang nodes'
    : 'module and export table alarms of real Erlang nodes (skipped: install erlang-base)';

suite(modulesTitle, () => {
  // Raise levels of 0 % / 1 %: a real node's tables (about 110 of 65,536 modules) stay minor.
  const live = useLiveNodeManager({
    alarmPollMs: 60_000,
    metricsPollMs: 60_000,
    limitAlarmPollMs: 100,
    limitAlarmThresholds: 'module_limit=0/1,export_limit=0/1',
  });

  it('reads the module and export tables and their ERTS limits from the node', async () => {
    const { node, run } = await live.startNode('nmmods');
    const nodeId = await live.addUp(node);
    const alarms = await live.untilAlarms(nodeId, ['export_limit_minor', 'module_limit_minor'], 'both alarms');
    const modules = alarms.find((a) => a.alarmId === 'module_limit_minor')!;
    const loaded = Number(((await run('length(erlang:loaded()).')) as { value: number }).value);
    const [, count] = /^modules: (\d+) of 65536 \(0\.\d %\)$/.exec(modules.additionalInformation) ?? [];
    // The module table counts what is loaded (a module may load between the two reads).
    expect(Math.abs(Number(count) - loaded)).toBeLessThanOrEqual(5);
    expect(modules.src.custom).toBe('module_limit');
    expect(modules.threshold).toBe(0);
    const exports = alarms.find((a) => a.alarmId === 'export_limit_minor')!;
    expect(exports.additionalInformation).toMatch(/^exports: \d{3,} of 524288 \(\d\.\d %\)$/);
  }, 60_000);
});
