import { listElements, tupleOf, type Term } from '@triad/erlang-dist';
import { ErlangExpression, integerOf, textOf } from './erlang-expression.js';
import { erlangTermText } from './erlang-term-text.js';
import type { LimitFamily } from '../model/limit-thresholds.js';

/**
 * Evaluated on the node in one RPC: the counts and limits of processes, ports, atoms and ETS
 * tables; the longest message queue (pid, length, registered name or `[]`); where os_mon runs
 * (`memsup` / `disksup` registered), system memory data and disk data, else `undefined`; the open
 * file descriptors and their limit (`{Open, MaxFds}`: the entries of `/proc/self/fd`, less the one
 * listing them, and `max_fds` of `check_io`), `undefined` where there is no `/proc`; and the
 * module and export tables (`[{"module_code" | "export_list", Limit, Entries}]`), read from the
 * `=index_table:` sections of `erlang:system_info(info)`, the only place ERTS reports them (their
 * limits are compile-time constants of ERTS: 65,536 modules and 524,288 exports in OTP 25).
 */
export const SYSTEM_LIMIT_SOURCE = [
  'S = fun(K) -> erlang:system_info(K) end,',
  'Ets = try erlang:system_info(ets_count) catch _:_ -> length(ets:all()) end,',
  '{QP, QN} = lists:foldl(fun(P, {_, M} = A) -> case erlang:process_info(P, message_queue_len) of',
  '{message_queue_len, N} when N > M -> {P, N}; _ -> A end end, {undefined, 0}, erlang:processes()),',
  'QName = case QP of undefined -> []; _ -> case erlang:process_info(QP, registered_name) of',
  '{registered_name, RN} -> RN; _ -> [] end end,',
  'Mem = case whereis(memsup) of undefined -> undefined; _ ->',
  'try memsup:get_system_memory_data() catch _:_ -> undefined end end,',
  'Disk = case whereis(disksup) of undefined -> undefined; _ ->',
  'try disksup:get_disk_data() catch _:_ -> undefined end end,',
  'Fds = try MaxFds = case S(check_io) of [IO | _] when is_list(IO) -> proplists:get_value(max_fds, IO);',
  'IO -> proplists:get_value(max_fds, IO) end,',
  'case file:list_dir("/proc/self/fd") of {ok, Fd} -> {length(Fd) - 1, MaxFds}; _ -> undefined end',
  'catch _:_ -> undefined end,',
  'Info = S(info),',
  String.raw`Tables = [{T, list_to_integer(L), list_to_integer(E)} || T <- ["module_code", "export_list"],`,
  String.raw`{match, [L, E]} <- [re:run(Info, "=index_table:" ++ T ++ "\nsize: \\d+\nlimit: (\\d+)\nentries: (\\d+)",`,
  '[{capture, all_but_first, list}])]],',
  '{S(process_count), S(process_limit), S(port_count), S(port_limit), S(atom_count), S(atom_limit),',
  'Ets, S(ets_limit), {QP, QN, QName}, Mem, Disk, Fds, Tables}.',
].join(' ');

/** The shared parsed form of `SYSTEM_LIMIT_SOURCE`. */
export const SYSTEM_LIMIT_EXPRESSION = new ErlangExpression(SYSTEM_LIMIT_SOURCE);

/** One family's value in a reading, with the text that names what it measured. */
export interface LimitValue {
  /** Percent of the limit, or messages for `process_message_queue`. */
  readonly value: number;
  /** Plain text for `additionalInformation` (count and limit, or the process). */
  readonly detail: string;
}

/** What one evaluation read; a family without a value (os_mon not running) is absent. */
export type SystemLimitReading = Partial<Record<LimitFamily, LimitValue>>;

/** The `=index_table:` sections of `erlang:system_info(info)` the reading asks for. */
const TABLES: Readonly<Record<string, { family: LimitFamily; what: string }>> = Object.freeze({
  module_code: { family: 'module_limit', what: 'modules' },
  export_list: { family: 'export_limit', what: 'exports' },
});

function ratio(count: number | undefined, limit: number | undefined, what: string): LimitValue | undefined {
  if (count === undefined || limit === undefined || limit <= 0) return undefined;
  const value = (100 * count) / limit;
  return { value, detail: `${what}: ${count} of ${limit} (${value.toFixed(1)} %)` };
}

function proplistInteger(term: Term | undefined, key: string): number | undefined {
  if (term?.type !== 'list') return undefined;
  for (const entry of term.elements) {
    const pair = tupleOf(entry, 2);
    if (pair?.[0]?.type === 'atom' && pair[0].name === key) return integerOf(pair[1]);
  }
  return undefined;
}

/**
 * The reading in an evaluation result of `SYSTEM_LIMIT_SOURCE` (`nodeName` prints local pids as
 * `<0.N.0>`). Memory is `(total - available) / total` of `memsup:get_system_memory_data()`
 * (`free + buffered + cached` where `available_memory` is missing); disk the fullest mount of
 * `disksup:get_disk_data()`.
 * @throws Error for a result of another shape.
 */
export function parseSystemLimitReading(result: Term, nodeName: string): SystemLimitReading {
  const parts = tupleOf(result, 13);
  if (!parts) throw new Error(`system limits gave ${erlangTermText(result)}`);
  const n = parts.map(integerOf);
  const reading: SystemLimitReading = {};
  const set = (family: LimitFamily, value: LimitValue | undefined) => {
    if (value) reading[family] = value;
  };
  set('process_limit', ratio(n[0], n[1], 'processes'));
  set('port_limit', ratio(n[2], n[3], 'ports'));
  set('atom_limit', ratio(n[4], n[5], 'atoms'));
  set('ets_limit', ratio(n[6], n[7], 'ETS tables'));
  const queue = tupleOf(parts[8], 3);
  const length = integerOf(queue?.[1]);
  if (queue && length !== undefined) {
    const pid = erlangTermText(queue[0]!, { localNode: nodeName });
    const name = queue[2]?.type === 'atom' ? ` (${queue[2].name})` : '';
    set('process_message_queue', { value: length, detail: `longest message queue: ${pid}${name}, ${length} messages` });
  }
  const memory = parts[9];
  const total = proplistInteger(memory, 'system_total_memory') ?? proplistInteger(memory, 'total_memory');
  const available =
    proplistInteger(memory, 'available_memory') ??
    ['free_memory', 'buffered_memory', 'cached_memory']
      .map((key) => proplistInteger(memory, key))
      .reduce<number | undefined>((sum, v) => (v === undefined ? sum : (sum ?? 0) + v), undefined);
  if (total !== undefined && available !== undefined)
    set('memory_limit', ratio(total - available, total, 'system memory bytes used'));
  if (parts[10]?.type === 'list') {
    let fullest: LimitValue | undefined;
    for (const disk of parts[10].elements) {
      const [id, , capacity] = tupleOf(disk, 3) ?? [];
      const percent = integerOf(capacity);
      if (percent === undefined || (fullest && fullest.value >= percent)) continue;
      fullest = { value: percent, detail: `disk ${textOf(id) ?? '?'}: ${percent} % used` };
    }
    set('disk_capacity', fullest);
  }
  const fds = tupleOf(parts[11], 2);
  set('open_fd_limit_node', ratio(integerOf(fds?.[0]), integerOf(fds?.[1]), 'open file descriptors'));
  for (const table of listElements(parts[12]) ?? []) {
    const [name, limit, entries] = tupleOf(table, 3) ?? [];
    const which = TABLES[textOf(name) ?? ''];
    if (which) set(which.family, ratio(integerOf(entries), integerOf(limit), which.what));
  }
  return reading;
}
