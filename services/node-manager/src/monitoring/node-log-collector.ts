import { listElements, tupleOf, type Term } from '@triad/erlang-dist';
import { isLogLevel } from '../model/log-level.js';
import type { NodeLogEntry } from '../model/node-log-entry.js';
import type { Collector, MonitoredNode, RpcCaller } from './collector.js';
import { ErlangExpression, integerOf, textOf } from './erlang-expression.js';
import { erlangTermText } from './erlang-term-text.js';
import type { NodeLogs } from './node-logs.js';

/** Plugin that switches the log collector (WombatOAM's error-logger plugin). */
export const NODE_LOGS_PLUGIN = 'wombat_plugin_error_logger';

/** Id of the primary `logger` filter installed on managed nodes. */
export const LOG_FILTER_ID = 'triad_log_collector';
/** Registered name of the buffer process on managed nodes. */
export const LOG_BUFFER_NAME = 'triad_log_buffer';
/** Most entries the node-side buffer holds between two reads (the oldest are dropped). */
export const NODE_BUFFER_ENTRIES = 500;
/** Longest text of one entry, characters (`logger_formatter`'s `chars_limit`). */
export const LOG_TEXT_CHARS = 4_000;

/**
 * Installs, on the node, a buffer process (registered `triad_log_buffer`, an `erl_eval` fun: no
 * module is loaded) and a primary `logger` filter that sends it every crash report, supervisor
 * report and progress report (`error_logger` metadata, as `proc_lib` and `supervisor` log them)
 * and every other event of level warning or more severe, then lets the event through (`ignore`).
 * The buffer formats each event with `logger_formatter` (one line, the message only) and keeps
 * the newest 500. Also removes the counting filter of earlier versions. Idempotent: the filter is
 * replaced, a running buffer kept.
 */
export const INSTALL_LOG_COLLECTOR = new ErlangExpression(
  [
    'logger:remove_primary_filter(triad_crash_counter),',
    `case whereis(${LOG_BUFFER_NAME}) of`,
    '  undefined ->',
    '    Fmt = fun(Ev) ->',
    '      try unicode:characters_to_binary(logger_formatter:format(Ev,',
    `        #{single_line => true, template => [msg], chars_limit => ${LOG_TEXT_CHARS}}))`,
    '      catch _:_ -> unicode:characters_to_binary(io_lib:format("~0tP", [maps:get(msg, Ev), 30])) end',
    '    end,',
    '    Loop = fun Loop(Q, N) ->',
    '      receive',
    '        {log, Kind, #{level := Lv, meta := Meta} = Ev} ->',
    '          Q1 = queue:in({maps:get(time, Meta, erlang:system_time(microsecond)), Lv, Kind, Fmt(Ev)}, Q),',
    `          case N >= ${NODE_BUFFER_ENTRIES} of true -> Loop(queue:drop(Q1), N); false -> Loop(Q1, N + 1) end;`,
    '        {drain, From, Ref} -> From ! {Ref, queue:to_list(Q)}, Loop(queue:new(), 0);',
    '        stop -> ok',
    '      end',
    '    end,',
    '    Pid = spawn(fun() -> Loop(queue:new(), 0) end),',
    `    try register(${LOG_BUFFER_NAME}, Pid) catch error:badarg -> exit(Pid, kill) end;`,
    '  _ -> ok',
    'end,',
    `logger:remove_primary_filter(${LOG_FILTER_ID}),`,
    `logger:add_primary_filter(${LOG_FILTER_ID}, {fun(#{level := Level, meta := M} = Event, _) ->`,
    '  K = case M of',
    '    #{error_logger := #{type := crash_report}} -> crash_report;',
    '    #{error_logger := #{type := supervisor_report}} -> supervisor_report;',
    '    #{error_logger := #{type := progress}} -> progress_report;',
    '    _ -> case logger:compare_levels(Level, warning) of lt -> none; _ -> logger_event end',
    '  end,',
    `  case {K, whereis(${LOG_BUFFER_NAME})} of`,
    '    {none, _} -> ok; {_, undefined} -> ok; {_, B} -> B ! {log, K, Event}',
    '  end,',
    '  ignore',
    'end, []}).',
  ].join('\n'),
);

/** Takes what the buffer holds (`[{TimeUs, Level, Kind, Text}]`), or `not_installed`. */
export const DRAIN_LOG_BUFFER = new ErlangExpression(
  [
    `case whereis(${LOG_BUFFER_NAME}) of`,
    '  undefined -> not_installed;',
    '  P -> R = make_ref(), P ! {drain, self(), R}, receive {R, Es} -> Es after 1000 -> [] end',
    'end.',
  ].join('\n'),
);

/** Removes the filter and stops the buffer. */
export const REMOVE_LOG_COLLECTOR = new ErlangExpression(
  [
    `logger:remove_primary_filter(${LOG_FILTER_ID}),`,
    `case whereis(${LOG_BUFFER_NAME}) of undefined -> ok; P -> P ! stop, ok end.`,
  ].join('\n'),
);

/**
 * Collects the logs of managed nodes: crash reports, supervisor and progress reports and logger
 * events of level warning or more severe (docs/node-manager.md, "Logs"). The first read of a node
 * after the service starts installs the filter and buffer (`INSTALL_LOG_COLLECTOR`); each
 * interval drains the buffer into `NodeLogs`, reinstalling when the node restarted. Events logged
 * while nobody watched are not collected; progress reports only reach the filter when the node's
 * primary logger level is `info` or lower (we do not change it). Switching the plugin off removes
 * the filter and the buffer from the node.
 */
export class NodeLogCollector implements Collector {
  readonly plugin = NODE_LOGS_PLUGIN;
  readonly defaultOn = true;
  readonly intervalMs: number;
  readonly #rpc: RpcCaller;
  readonly #logs: Pick<NodeLogs, 'record'>;
  readonly #installed = new Set<string>();

  constructor(rpc: RpcCaller, logs: Pick<NodeLogs, 'record'>, intervalMs: number) {
    this.#rpc = rpc;
    this.#logs = logs;
    this.intervalMs = intervalMs;
  }

  async collect(node: MonitoredNode): Promise<void> {
    if (!this.#installed.has(node.id)) {
      await INSTALL_LOG_COLLECTOR.evaluate(this.#rpc, node.id);
      this.#installed.add(node.id);
    }
    let drained = await DRAIN_LOG_BUFFER.evaluate(this.#rpc, node.id);
    if (drained.type === 'atom' && drained.name === 'not_installed') {
      await INSTALL_LOG_COLLECTOR.evaluate(this.#rpc, node.id);
      drained = await DRAIN_LOG_BUFFER.evaluate(this.#rpc, node.id);
    }
    await this.#logs.record(node, parseLogEntries(drained));
  }

  async stop(node: MonitoredNode): Promise<void> {
    this.#installed.delete(node.id);
    await REMOVE_LOG_COLLECTOR.evaluate(this.#rpc, node.id).catch(() => undefined);
  }

  paused(node: MonitoredNode): Promise<void> {
    // The node may come back restarted: install again on the next read.
    this.#installed.delete(node.id);
    return Promise.resolve();
  }
}

/** The buffer's `[{TimeUs, Level, Kind, Text}]` as entries. @throws Error on another shape. */
export function parseLogEntries(term: Term): NodeLogEntry[] {
  const elements = term.type === 'nil' ? [] : listElements(term);
  if (!elements) throw new Error(`log buffer gave ${erlangTermText(term)}`);
  return elements.map((element) => {
    const [time, level, kind, text] = tupleOf(element, 4) ?? [];
    const timeUs = integerOf(time);
    const body = textOf(text);
    if (timeUs === undefined || level?.type !== 'atom' || kind?.type !== 'atom' || body === undefined)
      throw new Error(`log entry ${erlangTermText(element)}`);
    return { timeUs, level: isLogLevel(level.name) ? level.name : 'error', kind: kind.name, text: body };
  });
}
