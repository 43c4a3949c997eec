import { atom, list, string } from '@triad/erlang-dist';
import { describe, expect, it } from 'vitest';
import { liveErl } from '../connections/test-support/erl-node.js';
import type { NodeLogEvent } from '../events/node-manager-events.js';
import type { NodeLogEntry } from '../model/node-log-entry.js';
import { LIVE_ADMIN as auth, useLiveNodeManager } from '../test-support/live-node-manager.js';
import { pollUntil } from '../test-support/poll-until.js';
import { CodeLoadCollector } from './code-load-collector.js';
import type { RpcCaller } from './collector.js';
import { ErlangExpression } from './erlang-expression.js';
import { erlangTermText } from './erlang-term-text.js';
import { LOG_BUFFER_NAME, LOG_FILTER_ID } from './node-log-collector.js';

const suite = liveErl.available || liveErl.required ? describe : describe.skip;
const title =
  liveErl.available || liveErl.required
    ? 'logs of real Erlang nodes'
    : 'logs of real Erlang nodes (skipped: install erlang-base)';

interface ListedLog {
  time: number;
  level: string;
  kind: string;
  text: string;
}

/** Starts a temporary child under `kernel_safe_sup` (a supervisor every node runs), then kills it. */
const SUPERVISED_CRASH = new ErlangExpression(
  '{ok, P} = supervisor:start_child(kernel_safe_sup, #{id => triad_doomed, start => {gen_event, start_link, []}, ' +
    'restart => temporary}), exit(P, kill), ok.',
);

suite(title, () => {
  const live = useLiveNodeManager({ alarmPollMs: 100, metricsPollMs: 100 });
  const { addUp } = live;

  async function logs(nodeId: string, query = ''): Promise<ListedLog[]> {
    const reply = await fetch(`${live.server.url}/api/logs/node/${nodeId}${query}`, { headers: auth });
    expect(reply.status).toBe(200);
    return ((await reply.json()) as { logs: ListedLog[] }).logs;
  }
  async function setPlugin(nodeId: string, plugin: string, state: 'on' | 'off'): Promise<void> {
    const r = await fetch(`${live.server.url}/api/plugins/node/${nodeId}/plugin/${plugin}`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ plugin_state: state }),
    });
    expect(r.status).toBe(200);
  }

  it('collects crash, supervisor and progress reports and error events, readable and pushed live', async () => {
    const { node, direct } = await live.startNode('nmlogs');
    const pushed: NodeLogEvent[] = [];
    const unsubscribe = live.server.core.events.subscribe((event) => {
      if (event.type === 'log') pushed.push(event);
    });
    const nodeId = await addUp(node);
    const rpc: RpcCaller = { rpc: (_nodeId, module, fn, args) => direct.rpc(module, fn, args) };
    const filterInstalled = async () =>
      erlangTermText(await direct.rpc('logger', 'get_primary_config', [])).includes(LOG_FILTER_ID);
    try {
      // The collector's first read installs the filter; what is logged before it is not collected.
      await pollUntil(async () => ((await filterInstalled()) ? true : undefined), 8_000, 'the log filter');
      // Progress reports are info: they reach the filter only when the node logs info.
      await direct.rpc('logger', 'set_primary_config', [atom('level'), atom('info')]);
      await direct.rpc('proc_lib', 'spawn', [atom('erlang'), atom('error'), list([atom('boom')])]);
      await direct.rpc('logger', 'error', [string('disk on fire')]);
      await SUPERVISED_CRASH.evaluate(rpc, 'direct');
      const listed = await pollUntil(
        async () => {
          const entries = await logs(nodeId);
          const kinds = new Set(entries.map((e) => e.kind));
          return ['crash_report', 'logger_event', 'supervisor_report', 'progress_report'].every((k) => kinds.has(k))
            ? entries
            : undefined;
        },
        10_000,
        'four kinds of log entries',
      );
      const crash = listed.find((e) => e.kind === 'crash_report');
      expect(crash?.level).toBe('error');
      expect(crash?.text).toContain('boom');
      expect(listed.find((e) => e.kind === 'logger_event')).toMatchObject({ level: 'error', text: 'disk on fire' });
      expect(listed.find((e) => e.kind === 'supervisor_report')?.text).toContain('triad_doomed');
      expect(listed.find((e) => e.kind === 'progress_report')?.level).toBe('info');
      // Newest first, by the node's clock.
      const times = listed.map((e) => e.time);
      expect(times).toEqual([...times].sort((a, b) => b - a));
      // level= keeps that level and more severe; limit= the newest n.
      expect((await logs(nodeId, '?level=error')).some((e) => e.level === 'info')).toBe(false);
      expect((await logs(nodeId, '?level=error')).length).toBeGreaterThanOrEqual(3);
      expect(await logs(nodeId, '?limit=1')).toEqual([listed[0]]);
      // Pushed to live subscribers as collected, and the crash counted in node-stat.
      expect(pushed.some((e) => e.nodeId === nodeId && e.log.kind === 'crash_report' && e.nodeName === node.name)).toBe(
        true,
      );
      const stat = (await (await fetch(`${live.server.url}/api/topo/node-stat`, { headers: auth })).json()) as {
        number_of_crashlogs_this_hour: number;
      };
      expect(stat.number_of_crashlogs_this_hour).toBeGreaterThanOrEqual(1);

      // Off removes the filter and the buffer from the node: nothing is collected any more.
      await setPlugin(nodeId, 'wombat_plugin_error_logger', 'off');
      await pollUntil(async () => ((await filterInstalled()) ? undefined : true), 8_000, 'the filter to go');
      expect(erlangTermText(await direct.rpc('erlang', 'whereis', [atom(LOG_BUFFER_NAME)]))).toBe('undefined');
    } finally {
      unsubscribe();
    }
  }, 40_000);

  it('switches the code tracer: on reports module loads in /api/logs, off stops it', async () => {
    const { node, direct } = await live.startNode('nmtrace');
    const nodeId = await addUp(node);
    const loadedNow = async (module: string) =>
      erlangTermText(await direct.rpc('code', 'is_loaded', [atom(module)])) !== 'false';
    const unload = async (module: string) => {
      await direct.rpc('code', 'delete', [atom(module)]);
      await direct.rpc('code', 'purge', [atom(module)]);
    };
    /** Loads `module` until the tracer reports it (a load before its first read is its baseline). */
    const untilReported = (module: string) =>
      pollUntil(
        async () => {
          if ((await logs(nodeId)).some((e) => e.text === `loaded module ${module}`)) return true;
          if (await loadedNow(module)) await unload(module);
          else await direct.rpc('code', 'ensure_loaded', [atom(module)]);
          return undefined;
        },
        10_000,
        `the load of ${module}`,
      );
    for (const module of ['erl_tar', 'digraph', 'sofs']) expect(await loadedNow(module)).toBe(false);
    // Off by default, as in WombatOAM.
    await setPlugin(nodeId, 'wombat_plugin_code_tracer', 'on');
    await untilReported('erl_tar');
    expect((await logs(nodeId)).find((e) => e.text === 'loaded module erl_tar')).toMatchObject({
      level: 'notice',
      kind: 'code_loaded',
    });
    // Loaded while off: never reported, even once the tracer is back on (it starts from a new baseline).
    await setPlugin(nodeId, 'wombat_plugin_code_tracer', 'off');
    // The monitor applies a node's plugin changes in order, the tracer before the log collector
    // (start-node-monitor.ts), and waits for a collection in progress: once the log filter
    // switched off after the tracer is gone from the node, the tracer has stopped too.
    await setPlugin(nodeId, 'wombat_plugin_error_logger', 'off');
    await pollUntil(
      async () =>
        erlangTermText(await direct.rpc('logger', 'get_primary_config', [])).includes(LOG_FILTER_ID) ? undefined : true,
      8_000,
      'the log filter to go',
    );
    await direct.rpc('code', 'ensure_loaded', [atom('digraph')]);
    await setPlugin(nodeId, 'wombat_plugin_code_tracer', 'on');
    await untilReported('sofs');
    expect((await logs(nodeId)).some((e) => e.text.endsWith(' module digraph'))).toBe(false);
  }, 40_000);

  it('reports modules loaded and purged between two reads (the code tracer)', async () => {
    const { node, direct } = await live.startNode('nmcode');
    const recorded: NodeLogEntry[] = [];
    const collector = new CodeLoadCollector(
      { rpc: (_nodeId, module, fn, args) => direct.rpc(module, fn, args) },
      { record: (_node, entries) => Promise.resolve(void recorded.push(...entries)) },
      60_000,
    );
    const target = { id: 'watched', name: node.name };
    expect(erlangTermText(await direct.rpc('code', 'is_loaded', [atom('erl_tar')]))).toBe('false');
    // A young node still loads modules on its own: look at erl_tar only.
    const ofErlTar = () => recorded.filter((e) => e.text.endsWith(' module erl_tar'));
    await collector.collect(target);
    expect(recorded).toEqual([]);
    await direct.rpc('code', 'ensure_loaded', [atom('erl_tar')]);
    await collector.collect(target);
    expect(ofErlTar().map((e) => [e.kind, e.level, e.text])).toEqual([
      ['code_loaded', 'notice', 'loaded module erl_tar'],
    ]);
    await direct.rpc('code', 'delete', [atom('erl_tar')]);
    await direct.rpc('code', 'purge', [atom('erl_tar')]);
    await collector.collect(target);
    expect(ofErlTar().map((e) => e.kind)).toEqual(['code_loaded', 'code_purged']);
  }, 40_000);
});
