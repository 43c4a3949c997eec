import { randomUUID } from 'node:crypto';
import { atom, string, tupleOf, NIL, type Term } from '@triad/erlang-dist';
import type { TopologyRepository } from '../repositories/topology-repository.js';
import { COLLECTOR_RPC_TIMEOUT_MS, type Collector, type MonitoredNode, type RpcCaller } from './collector.js';
import { erlangTermText } from './erlang-term-text.js';

/** Plugin that switches the crash-report collector. */
export const CRASH_REPORTS_PLUGIN = 'wombat_plugin_error_logger';

/** Id of the primary `logger` filter installed on managed nodes, and the `persistent_term` key of its counter. */
export const CRASH_FILTER_ID = 'triad_crash_counter';

/**
 * Erlang evaluated on the node (no module is loaded there): creates a `counters` counter once
 * (kept in `persistent_term`), installs a primary logger filter that adds 1 for every event whose
 * metadata says `error_logger => #{type => crash_report}` (what `proc_lib` logs when a process
 * crashes) and otherwise stays out of the decision (`ignore`), and returns the counter. Adding an
 * existing filter fails harmlessly, so the same text both installs and reads.
 */
export const CRASH_COUNTER_SOURCE = [
  `case persistent_term:get(${CRASH_FILTER_ID}, undefined) of`,
  `undefined -> persistent_term:put(${CRASH_FILTER_ID}, counters:new(1, [])); _ -> ok end,`,
  `C = persistent_term:get(${CRASH_FILTER_ID}),`,
  `logger:add_primary_filter(${CRASH_FILTER_ID}, {fun(#{meta := #{error_logger := #{type := crash_report}}}, K) ->`,
  'counters:add(K, 1, 1), ignore; (_, _) -> ignore end, C}),',
  'counters:get(C, 1).',
].join(' ');

/** Where crash logs go (the topology repository). */
export type CrashLogWriter = Pick<TopologyRepository, 'recordCrashLog'>;

/**
 * Counts crash reports of managed nodes into node-stat's crash-log counter. Each interval it
 * evaluates `CRASH_COUNTER_SOURCE` on the node (`erl_eval`, parsed once through `erl_scan` and
 * `erl_parse` on the node) and records one crash log per increase since the previous read. The
 * first read of a node after the service starts is the baseline (crashes while nobody watched
 * are not counted); a counter lower than before means the node restarted and all of it is new.
 * Switching the plugin off removes the filter from the node.
 */
export class CrashReportCollector implements Collector {
  readonly plugin = CRASH_REPORTS_PLUGIN;
  readonly defaultOn = true;
  readonly intervalMs: number;
  readonly #rpc: RpcCaller;
  readonly #topology: CrashLogWriter;
  readonly #now: () => number;
  readonly #last = new Map<string, number>();
  #parsed: Term | undefined;

  constructor(rpc: RpcCaller, topology: CrashLogWriter, intervalMs: number, now: () => number = Date.now) {
    this.#rpc = rpc;
    this.#topology = topology;
    this.intervalMs = intervalMs;
    this.#now = now;
  }

  async collect(node: MonitoredNode): Promise<void> {
    const count = await this.#readCounter(node);
    const last = this.#last.get(node.id);
    this.#last.set(node.id, count);
    if (last === undefined) return;
    const fresh = count >= last ? count - last : count;
    const at = this.#now();
    for (let i = 0; i < fresh; i++) await this.#topology.recordCrashLog(randomUUID(), node.id, at);
  }

  async stop(node: MonitoredNode): Promise<void> {
    this.#last.delete(node.id);
    await this.#rpc
      .rpc(node.id, 'logger', 'remove_primary_filter', [atom(CRASH_FILTER_ID)], { timeoutMs: COLLECTOR_RPC_TIMEOUT_MS })
      .catch(() => undefined);
  }

  async #readCounter(node: MonitoredNode): Promise<number> {
    const call = (module: string, fn: string, args: Term[]) =>
      this.#rpc.rpc(node.id, module, fn, args, { timeoutMs: COLLECTOR_RPC_TIMEOUT_MS });
    if (!this.#parsed) {
      const scanned = tupleOf(await call('erl_scan', 'string', [string(CRASH_COUNTER_SOURCE)]), 3);
      if (!scanned || scanned[0]?.type !== 'atom' || scanned[0].name !== 'ok')
        throw new Error('erl_scan failed on the crash counter source');
      const parsed = await call('erl_parse', 'parse_exprs', [scanned[1]!]);
      const exprs = tupleOf(parsed, 2);
      if (!exprs || exprs[0]?.type !== 'atom' || exprs[0].name !== 'ok')
        throw new Error(`erl_parse failed: ${erlangTermText(parsed)}`);
      this.#parsed = exprs[1];
    }
    const reply = await call('erl_eval', 'exprs', [this.#parsed!, NIL]);
    const value = tupleOf(reply, 3);
    if (value?.[0]?.type !== 'atom' || value[0].name !== 'value' || value[1]?.type !== 'integer')
      throw new Error(`crash counter gave ${erlangTermText(reply)}`);
    return Number(value[1].value);
  }
}
