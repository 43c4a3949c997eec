import { listElements, tupleOf, type Term } from '@triad/erlang-dist';
import { erlangAtom } from '../model/erlang-terms.js';
import {
  MAX_PROCESS_RELATIONS,
  type CountedList,
  type EtsSample,
  type EtsTableInfo,
  type ProcessDetails,
  type ProcessSample,
  type ProcessSummary,
} from '../model/explorer-records.js';
import { ErlangExpression, integerOf } from '../monitoring/erlang-expression.js';
import { erlangTermText } from '../monitoring/erlang-term-text.js';

/**
 * proc_lib starts every gen_server, supervisor ... in `proc_lib:init_p/5`; the call it was asked
 * to make is in the process dictionary, which `proc_lib:translate_initial_call/1` reads. Done for
 * the listed processes only, so at most `limit` dictionaries are read.
 */
const INITIAL_CALL = [
  'Ic = fun(P, {proc_lib, init_p, 5} = C) -> try proc_lib:translate_initial_call(P) catch _:_ -> C end;',
  '(_, C) -> C end,',
].join(' ');

/** The `process_info/2` items of a listed process, in this order. */
const SUMMARY_ITEMS = 'registered_name, current_function, initial_call, memory, reductions, message_queue_len';

/**
 * Processes chosen beyond `limit`, so that the list stays full when some of the chosen ones exit
 * before their items are read (short-lived processes, the RPC workers of earlier calls).
 */
const SPARE_PROCESSES = 10;

/**
 * Bindings `Key` (a `ProcessSortKey` atom) and `Limit`. Each process is asked for the one item
 * `Key` (constant time each) and the `{{Key, Value}, Pid}` pairs are ordered by the native
 * `lists:sort`; only the first `Limit` are asked for more. The per-process steps are compiled
 * code (`lists:zipwith` over `fun erlang:process_info/2`), not `erl_eval` interpreting a
 * comprehension, which took twice as long; what remains is `process_info/2` itself (decision 0041). A
 * process gone meanwhile pairs with `undefined`, sorts last and is dropped with the details; the
 * first `Limit + SPARE_PROCESSES` are read, the first `Limit` alive kept.
 * Reply: `{ProcessCount, [{Pid, InfoList, InitialCall}]}`, largest first.
 */
export const TOP_PROCESSES_SOURCE = [
  'Ps = erlang:processes(),',
  'Vs = lists:zipwith(fun erlang:process_info/2, Ps, lists:duplicate(length(Ps), Key)),',
  `Top = lists:sublist(lists:reverse(lists:sort(lists:zip(Vs, Ps))), Limit + ${SPARE_PROCESSES}),`,
  INITIAL_CALL,
  `{length(Ps), lists:sublist([{P, I, Ic(P, proplists:get_value(initial_call, I))} || {_, P} <- Top,`,
  `I <- [erlang:process_info(P, [${SUMMARY_ITEMS}])], is_list(I)], Limit)}.`,
].join(' ');

/** The `process_info/2` items of one process in detail; unbounded ones (messages, dictionary) are left out. */
const DETAIL_ITEMS = [
  `${SUMMARY_ITEMS},`,
  'status, links, monitors, monitored_by, trap_exit, priority, group_leader,',
  'heap_size, total_heap_size, stack_size, current_stacktrace',
].join(' ');

/**
 * Binding `PidText` (checked by `isLocalPidText`): `list_to_pid/1` reads it as data. Reply
 * `undefined` when there is no such process, else `{InfoList, InitialCall}` with links, monitors
 * and monitored_by each as `{Count, FirstOnes}`.
 */
export const PROCESS_DETAILS_SOURCE = [
  'P = try list_to_pid(PidText) catch error:badarg -> undefined end,',
  INITIAL_CALL,
  `Cut = fun(L) -> {length(L), lists:sublist(L, ${MAX_PROCESS_RELATIONS})} end,`,
  'case is_pid(P) andalso erlang:process_info(P, [' + DETAIL_ITEMS + ']) of',
  'I when is_list(I) -> {[case lists:member(K, [links, monitors, monitored_by]) of true -> {K, Cut(V)};',
  'false -> {K, V} end || {K, V} <- I], Ic(P, proplists:get_value(initial_call, I))};',
  '_ -> undefined end.',
].join(' ');

/**
 * Binding `Limit`. The tables with their memory (one `ets:info/2` each), the largest `Limit` by
 * memory; tables deleted meanwhile drop out. Reply `{TableCount, WordSize, [{Name, Id, Owner,
 * OwnerName | [], Type, Size, MemoryWords, Protection}]}`.
 */
export const ETS_TABLES_SOURCE = [
  'Ts = [{T, M} || T <- ets:all(), M <- [ets:info(T, memory)], is_integer(M)],',
  'Top = lists:sublist(lists:reverse(lists:keysort(2, Ts)), Limit),',
  'Name = fun(P) -> case erlang:process_info(P, registered_name) of {registered_name, N} -> N; _ -> [] end end,',
  '{length(Ts), erlang:system_info(wordsize), [{ets:info(T, name), ets:info(T, id), O, Name(O), ets:info(T, type),',
  'ets:info(T, size), M, ets:info(T, protection)} || {T, M} <- Top, O <- [ets:info(T, owner)], is_pid(O)]}.',
].join(' ');

export const TOP_PROCESSES_EXPRESSION = new ErlangExpression(TOP_PROCESSES_SOURCE);
export const PROCESS_DETAILS_EXPRESSION = new ErlangExpression(PROCESS_DETAILS_SOURCE);
export const ETS_TABLES_EXPRESSION = new ErlangExpression(ETS_TABLES_SOURCE);

/** The reply had another shape than its expression gives. */
export class UnexpectedReadingError extends Error {}

function shapeError(what: string, term: Term): UnexpectedReadingError {
  return new UnexpectedReadingError(`${what} gave ${erlangTermText(term).slice(0, 200)}`);
}

/** `{M, F, A}` as `m:f/a` (A an arity or an argument list); null for anything else. */
function mfaText(term: Term | undefined): string | null {
  const [m, f, a] = tupleOf(term, 3) ?? tupleOf(term, 4) ?? [];
  if (m?.type !== 'atom' || f?.type !== 'atom' || !a) return null;
  const arity = integerOf(a) ?? listElements(a)?.length;
  return arity === undefined ? null : `${erlangAtom(m.name)}:${erlangAtom(f.name)}/${arity}`;
}

/** The items of a `process_info/2` list reply by name. */
function itemsOf(term: Term | undefined): Map<string, Term> {
  const items = new Map<string, Term>();
  for (const entry of listElements(term) ?? []) {
    const [key, value] = tupleOf(entry, 2) ?? [];
    if (key?.type === 'atom' && value) items.set(key.name, value);
  }
  return items;
}

function summaryOf(pid: string, items: Map<string, Term>, initialCall: Term | undefined): ProcessSummary {
  const name = items.get('registered_name');
  return {
    pid,
    registeredName: name?.type === 'atom' ? name.name : null,
    currentFunction: mfaText(items.get('current_function')),
    initialCall: mfaText(initialCall) ?? mfaText(items.get('initial_call')),
    memory: integerOf(items.get('memory')) ?? 0,
    reductions: integerOf(items.get('reductions')) ?? 0,
    messageQueueLen: integerOf(items.get('message_queue_len')) ?? 0,
  };
}

/** The reply of `TOP_PROCESSES_SOURCE`; `nodeName` makes the node's pids print as `<0.N.S>`. */
export function parseProcessSample(reply: Term, nodeName: string): ProcessSample {
  const [count, rows] = tupleOf(reply, 2) ?? [];
  const processCount = integerOf(count);
  const elements = listElements(rows);
  if (processCount === undefined || !elements) throw shapeError('the process list', reply);
  const processes = elements.flatMap((row) => {
    const [pid, info, initialCall] = tupleOf(row, 3) ?? [];
    if (pid?.type !== 'pid') return [];
    return [summaryOf(erlangTermText(pid, { localNode: nodeName }), itemsOf(info), initialCall)];
  });
  return { processCount, processes };
}

function countedList(term: Term | undefined, nodeName: string): CountedList {
  const [count, items] = tupleOf(term, 2) ?? [];
  const shown = (listElements(items) ?? []).map((item) => {
    // monitors: {process, Pid | {Name, Node}} and {port, Port}; the rest are bare pids and ports.
    const pair = tupleOf(item, 2);
    const target = pair?.[0]?.type === 'atom' && pair[1] ? pair[1] : item;
    return erlangTermText(target, { localNode: nodeName });
  });
  return { count: integerOf(count) ?? shown.length, items: shown };
}

/** One stack frame `{M, F, ArityOrArgs, Location}` as `m:f/a (file:line)`. */
function frameText(frame: Term): string {
  const mfa = mfaText(frame) ?? erlangTermText(frame);
  const location = itemsOf(tupleOf(frame, 4)?.[3]);
  const file = location.get('file');
  const line = integerOf(location.get('line'));
  if (!file || line === undefined) return mfa;
  const fileText = file.type === 'string' ? file.value : erlangTermText(file);
  return `${mfa} (${fileText}:${line})`;
}

/** The reply of `PROCESS_DETAILS_SOURCE`: undefined when the process does not exist. */
export function parseProcessDetails(reply: Term, pid: string, nodeName: string): ProcessDetails | undefined {
  if (reply.type === 'atom' && reply.name === 'undefined') return undefined;
  const [info, initialCall] = tupleOf(reply, 2) ?? [];
  if (!info || info.type === 'atom') throw shapeError('the process details', reply);
  const items = itemsOf(info);
  const atomText = (key: string) => {
    const value = items.get(key);
    return value?.type === 'atom' ? value.name : '';
  };
  const groupLeader = items.get('group_leader');
  return {
    ...summaryOf(pid, items, initialCall),
    status: atomText('status'),
    links: countedList(items.get('links'), nodeName),
    monitors: countedList(items.get('monitors'), nodeName),
    monitoredBy: countedList(items.get('monitored_by'), nodeName),
    trapExit: atomText('trap_exit') === 'true',
    priority: atomText('priority'),
    groupLeader: groupLeader ? erlangTermText(groupLeader, { localNode: nodeName }) : '',
    heapSize: integerOf(items.get('heap_size')) ?? 0,
    totalHeapSize: integerOf(items.get('total_heap_size')) ?? 0,
    stackSize: integerOf(items.get('stack_size')) ?? 0,
    currentStacktrace: (listElements(items.get('current_stacktrace')) ?? []).map(frameText),
  };
}

/** The reply of `ETS_TABLES_SOURCE`. */
export function parseEtsSample(reply: Term, nodeName: string): EtsSample {
  const [count, wordSize, rows] = tupleOf(reply, 3) ?? [];
  const tableCount = integerOf(count);
  const word = integerOf(wordSize);
  const elements = listElements(rows);
  if (tableCount === undefined || word === undefined || !elements) throw shapeError('the ETS tables', reply);
  const text = (term: Term) => erlangTermText(term, { localNode: nodeName });
  const tables = elements.flatMap((row): EtsTableInfo[] => {
    const [name, id, owner, ownerName, type, size, memory, protection] = tupleOf(row, 8) ?? [];
    const objects = integerOf(size);
    const words = integerOf(memory);
    // A table deleted between two ets:info calls answers undefined: it is left out.
    if (name?.type !== 'atom' || !id || owner?.type !== 'pid' || objects === undefined || words === undefined)
      return [];
    return [
      {
        name: name.name,
        id: id.type === 'atom' ? id.name : text(id),
        owner: text(owner),
        ownerName: ownerName?.type === 'atom' ? ownerName.name : null,
        type: type?.type === 'atom' ? type.name : '',
        size: objects,
        memory: words * word,
        protection: protection?.type === 'atom' ? protection.name : '',
      },
    ];
  });
  return { tableCount, tables };
}
