import { describe, expect, it } from 'vitest';
import { liveErl } from '../connections/test-support/erl-node.js';
import { LIVE_ADMIN, useLiveNodeManager } from '../test-support/live-node-manager.js';
import { pollUntil } from '../test-support/poll-until.js';
import { SYSTEM_MONITOR_PROCESS } from './system-monitor-reading.js';

const suite = liveErl.available || liveErl.required ? describe : describe.skip;
const title =
  liveErl.available || liveErl.required
    ? 'system monitor alarms of real Erlang nodes'
    : 'system monitor alarms of real Erlang nodes (skipped: install erlang-base)';

suite(title, () => {
  // 1 ms collections and a 1 MB heap: what a list of a few million elements does on any machine.
  const live = useLiveNodeManager({
    alarmPollMs: 60_000,
    metricsPollMs: 60_000,
    limitAlarmPollMs: 300,
    systemMonitorAlarms: 'long_gc=1,large_heap=1,long_schedule=off',
  });
  const { untilAlarms, addUp } = live;
  const holder = `whereis(${SYSTEM_MONITOR_PROCESS})`;

  async function setPlugin(nodeId: string, state: 'on' | 'off'): Promise<void> {
    const r = await fetch(`${live.server.url}/api/plugins/node/${nodeId}/plugin/wombat_plugin_alarm`, {
      method: 'PUT',
      headers: { ...LIVE_ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ plugin_state: state }),
    });
    expect(r.status).toBe(200);
  }

  it('raises long_gc and large_heap for a big heap, clears them when quiet, lets go when off', async () => {
    const { node, run } = await live.startNode('nmsysmon');
    const nodeId = await addUp(node);
    await pollUntil(async () => ((await run(`${holder}.`)).type === 'pid' ? true : undefined), 15_000, 'the holder');
    const monitor = await run(`{P, _} = erlang:system_monitor(), P =:= ${holder}.`);
    expect(monitor).toEqual({ type: 'atom', name: 'true' });

    // A registered process that builds a big list and collects it, once.
    await run(
      'P = spawn(fun() -> L = lists:seq(1, 3000000), erlang:garbage_collect(), length(L),' +
        ' receive stop -> ok end end), register(triad_big_heap, P), ok.',
    );
    const alarms = await untilAlarms(nodeId, ['large_heap', 'long_gc'], 'long_gc and large_heap');
    const gc = alarms.find((a) => a.alarmId === 'long_gc')!;
    expect(gc.severity).toBe('minor');
    expect(gc.src.custom).toBe('long_gc');
    expect(gc.additionalInformation).toMatch(/^A garbage collection took over 1 ms (once|\d+ times) in the /);
    expect(gc.additionalInformation).toMatch(/the longest took \d+ ms, in /);
    const heap = alarms.find((a) => a.alarmId === 'large_heap')!;
    expect(heap.severity).toBe('major');
    expect(heap.threshold).toBe(1);
    expect(heap.additionalInformation).toMatch(/^A process heap grew past 1 MB .* the largest was \d+\.\d MB, in /);
    expect(heap.additionalInformation).toContain('triad_big_heap');

    // The process ends: nothing more to see, so the next check clears both.
    await run('triad_big_heap ! stop, ok.');
    await untilAlarms(nodeId, [], 'the alarms to clear');

    await setPlugin(nodeId, 'off');
    await pollUntil(
      async () => {
        const both = await run(`{${holder}, erlang:system_monitor()}.`);
        return JSON.stringify(both) ===
          JSON.stringify({
            type: 'tuple',
            elements: [
              { type: 'atom', name: 'undefined' },
              { type: 'atom', name: 'undefined' },
            ],
          })
          ? true
          : undefined;
      },
      15_000,
      'the node to get its system monitor back',
    );
  }, 60_000);

  it('never replaces a system monitor the node set itself, and says so until it is released', async () => {
    const { node, run } = await live.startNode('nmsysmontaken');
    await run(
      'P = spawn(fun() -> receive stop -> ok end end), register(app_sysmon, P),' +
        ' erlang:system_monitor(P, [busy_port]), ok.',
    );
    const nodeId = await addUp(node);
    const [taken] = await untilAlarms(nodeId, ['system_monitor_unavailable'], 'system_monitor_unavailable');
    expect(taken!.severity).toBe('warning');
    expect(taken!.additionalInformation).toMatch(/^The node's system monitor is held by \{<[0-9.]+>,app_sysmon\}/);
    const still = await run('{P, _} = erlang:system_monitor(), P =:= whereis(app_sysmon).');
    expect(still).toEqual({ type: 'atom', name: 'true' });

    await run('erlang:system_monitor(undefined), ok.');
    await untilAlarms(nodeId, [], 'the warning to clear once the slot is free');
    // The warning cleared because a check found the slot free and took it.
    const now = await run(`case erlang:system_monitor() of {P, _} -> P =:= ${holder}; _ -> false end.`);
    expect(now).toEqual({ type: 'atom', name: 'true' });
  }, 60_000);
});

suite(`${title}: busy ports and long runs`, () => {
  const live = useLiveNodeManager({
    alarmPollMs: 60_000,
    metricsPollMs: 60_000,
    limitAlarmPollMs: 300,
    systemMonitorAlarms: 'long_gc=off,large_heap=off,long_schedule=30',
  });
  const { untilAlarms, addUp } = live;

  it('raises busy_port and busy_dist_port for suspended senders and clears them when they are gone', async () => {
    // A distribution buffer of 64 KB (`+zdbbl 64`): one message of 256 KB makes the connection
    // busy, while the node manager's own replies (a few KB) do not.
    const a = await live.startNode('nmbusya', ['+zdbbl', '64']);
    const b = await live.startNode('nmbusyb');
    const nodeId = await addUp(a.node);
    await b.run('register(triad_sink, spawn(fun() -> receive stop -> ok end end)), ok.');
    const other = `'${b.node.name}'`;
    expect(await a.run(`erlang:set_cookie(${other}, '${b.node.cookie}'), net_adm:ping(${other}).`)).toEqual({
      type: 'atom',
      name: 'pong',
    });

    // A port whose program never reads its input: the writer is suspended once the pipe is full.
    await a.run(
      'spawn(fun() -> register(triad_port_writer, self()), P = open_port({spawn, "sleep 600"}, [binary]),' +
        ' B = binary:copy(<<0>>, 65536), [port_command(P, B) || _ <- lists:seq(1, 100)],' +
        ' receive stop -> ok end end), ok.',
    );
    // 100 messages of 256 KB to the other node, bounded (25 MB at most on the receiving side).
    await a.run(
      `spawn(fun() -> register(triad_dist_writer, self()), B = binary:copy(<<0>>, 262144),` +
        ` [{triad_sink, ${other}} ! B || _ <- lists:seq(1, 100)], receive stop -> ok end end), ok.`,
    );
    const alarms = await untilAlarms(nodeId, ['busy_dist_port', 'busy_port'], 'busy_port and busy_dist_port');
    const port = alarms.find((x) => x.alarmId === 'busy_port')!;
    expect(port.severity).toBe('minor');
    expect(port.additionalInformation).toMatch(/^A process was suspended sending to a busy port (once|\d+ times)/);
    expect(port.additionalInformation).toContain('triad_port_writer');
    const dist = alarms.find((x) => x.alarmId === 'busy_dist_port')!;
    expect(dist.severity).toBe('major');
    expect(dist.additionalInformation).toMatch(/the most often, \d+ times: \{<[0-9.]+>,triad_dist_writer\}\.$/);

    // The port writer dies with its port; the flood ends: the next check sees neither.
    await a.run('exit(whereis(triad_port_writer), kill), ok.');
    await untilAlarms(nodeId, [], 'the busy port alarms to clear');
  }, 60_000);

  it('raises long_schedule for a run that does not yield and clears it after', async () => {
    const { node, run } = await live.startNode('nmlongrun');
    const nodeId = await addUp(node);
    // list_to_tuple of a long list does not yield: about 100 ms in one go, again and again until
    // told to stop, so that on a loaded machine (where other processes may also be descheduled
    // for over 30 ms) the alarm's longest run is this one's at some check.
    await run(
      'spawn(fun() -> register(triad_long_run, self()), L = lists:seq(1, 5000000),' +
        ' Loop = fun Loop() -> list_to_tuple(L), receive stop -> ok after 20 -> Loop() end end, Loop() end), ok.',
    );
    await expect
      .poll(async () => (await untilAlarms(nodeId, ['long_schedule'], 'long_schedule'))[0]?.additionalInformation, {
        timeout: 30_000,
      })
      .toContain('triad_long_run');
    const [long] = await untilAlarms(nodeId, ['long_schedule'], 'long_schedule');
    expect(long!.severity).toBe('minor');
    expect(long!.threshold).toBe(30);
    expect(long!.additionalInformation).toContain('triad_long_run');
    expect(long!.additionalInformation).toMatch(
      /^A process or port ran over 30 ms without yielding .*the longest ran \d+ ms/,
    );
    await run('triad_long_run ! stop, ok.');
    await untilAlarms(nodeId, [], 'long_schedule to clear');
  }, 60_000);
});
