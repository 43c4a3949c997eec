import { atom, int, list, listElements, tuple, tupleOf, type Term } from '@triad/erlang-dist';
import {
  SYSTEM_MONITOR_KINDS,
  type SystemMonitorKind,
  type SystemMonitorThresholds,
} from '../model/system-monitor-settings.js';
import { ErlangExpression, integerOf, textOf } from './erlang-expression.js';

/**
 * Events of one kind counted between two checks at most: at the cap the node stops reporting that
 * kind until the next check, so a flood costs the node at most this many events (about 15 µs
 * each, interpreted) per kind and interval.
 */
export const SYSTEM_MONITOR_CAP = 500;

/** Registered name of the process that holds a managed node's system monitor for Triad. */
export const SYSTEM_MONITOR_PROCESS = 'triad_system_monitor';

/**
 * The one expression behind the system monitor alarms, evaluated through `erl_eval` (nothing is
 * loaded on the node). Bound: `Mode` (`drain` or `stop`), `Opts` (the `erlang:system_monitor/2`
 * options, `large_heap` in megabytes) and `LeaseMs`.
 *
 * `drain` makes sure a process registered as `triad_system_monitor` holds the node's system
 * monitor, then takes what it counted since the last drain: per kind the count, the worst value
 * (milliseconds, or bytes of heap) and who it was, or for the busy ports who was suspended most
 * often (among the first 64 processes seen). It never replaces a system monitor someone else
 * set (the node has one slot): it answers `{taken, Who}` instead. The process counts events in a
 * map, in a loop defined first and called through an argument: `erl_eval` rebuilds a named fun
 * on every call and a fun holds every fun bound before it, which made an event cost 500 µs
 * instead of about 10. It lets go of the system monitor and ends when it is not
 * drained for `LeaseMs` (Triad gone) or on `stop`.
 */
export const SYSTEM_MONITOR_EXPRESSION = new ErlangExpression(`
Words = erlang:system_info(wordsize),
Cap = ${SYSTEM_MONITOR_CAP},
Loop = fun(Again, Cs, Until, Current) ->
  receive
    {monitor, W, K, I} ->
      {Cs1, C1} =
        case K of
          _ when K =:= busy_port; K =:= busy_dist_port ->
            {C0, Ws} = maps:get(K, Cs, {0, #{}}),
            Ws1 = case Ws of #{W := N} -> Ws#{W := N + 1}; _ when map_size(Ws) < 64 -> Ws#{W => 1}; _ -> Ws end,
            {Cs#{K => {C0 + 1, Ws1}}, C0 + 1};
          _ ->
            V = case K of
                  large_heap -> (proplists:get_value(heap_block_size, I, 0)
                                 + proplists:get_value(old_heap_block_size, I, 0)) * Words;
                  _ -> proplists:get_value(timeout, I, 0)
                end,
            case maps:get(K, Cs, none) of
              {C, Max, MaxW} when Max >= V -> {Cs#{K := {C + 1, Max, MaxW}}, C + 1};
              {C, _, _} -> {Cs#{K := {C + 1, V, W}}, C + 1};
              none -> {Cs#{K => {1, V, W}}, 1}
            end
        end,
      case C1 >= Cap of
        true ->
          Capped = [O || O <- Current, O =/= K, not (is_tuple(O) andalso element(1, O) =:= K)],
          case erlang:system_monitor() of
            {Me, _} when Me =:= self() -> erlang:system_monitor(self(), Capped);
            _ -> ok
          end,
          Again(Again, Cs1, Until, Capped);
        false -> Again(Again, Cs1, Until, Current)
      end;
    {drain, From, Ref, New} ->
      case erlang:system_monitor() of
        {Me, _} when Me =:= self() ->
          New =:= Current orelse erlang:system_monitor(self(), New),
          From ! {Ref, {ours, Cs}},
          Again(Again, #{}, erlang:monotonic_time(millisecond) + LeaseMs, New);
        {Other, _} -> From ! {Ref, {taken, Other}};
        _ -> From ! {Ref, gone}
      end;
    stop ->
      case erlang:system_monitor() of {Me, _} when Me =:= self() -> erlang:system_monitor(undefined); _ -> ok end
  after max(0, Until - erlang:monotonic_time(millisecond)) ->
    case erlang:system_monitor() of {Me, _} when Me =:= self() -> erlang:system_monitor(undefined); _ -> ok end
  end
end,
Name = ${SYSTEM_MONITOR_PROCESS},
VmOpts = [case O of {large_heap, Mb} -> {large_heap, Mb * 1048576 div Words}; _ -> O end || O <- Opts],
Who = fun(W) when is_pid(W) ->
            case erlang:process_info(W, registered_name) of {registered_name, N} -> {W, N}; _ -> W end;
         (W) when is_port(W) ->
            case erlang:port_info(W, name) of {name, N} -> {W, N}; _ -> W end;
         (W) -> W
      end,
Text = fun(T) -> lists:flatten(io_lib:format("~0P", [T, 8])) end,
Top = fun(Ws) -> maps:fold(fun(W, N, {Best, _}) when N > Best -> {N, W}; (_, _, Acc) -> Acc end, {0, none}, Ws) end,
Report = fun(Cs) ->
           [case Entry of
              {C, Ws} -> {N, W} = Top(Ws), {K, C, N, Text(Who(W))};
              {C, V, W} -> {K, C, V, Text(Who(W))}
            end || {K, Entry} <- maps:to_list(Cs)]
         end,
Run = fun() ->
        case catch register(Name, self()) of
          true ->
            case erlang:system_monitor() of
              undefined ->
                erlang:system_monitor(self(), VmOpts),
                Loop(Loop, #{}, erlang:monotonic_time(millisecond) + LeaseMs, VmOpts);
              _ -> ok
            end;
          _ -> ok
        end
      end,
Ask = fun(P) ->
        Ref = erlang:monitor(process, P),
        P ! {drain, self(), Ref, VmOpts},
        receive
          {Ref, {ours, Cs}} -> erlang:demonitor(Ref, [flush]), {ours, Report(Cs)};
          {Ref, {taken, Other}} -> erlang:demonitor(Ref, [flush]), {taken, Text(Who(Other))};
          {Ref, R} -> erlang:demonitor(Ref, [flush]), R;
          {'DOWN', Ref, process, _, _} -> gone
        after 1000 -> erlang:demonitor(Ref, [flush]), gone
        end
      end,
case Mode of
  stop ->
    case whereis(Name) of undefined -> stopped; P1 -> P1 ! stop, stopped end;
  drain ->
    case whereis(Name) of
      undefined ->
        case erlang:system_monitor() of
          undefined -> Ask(spawn(Run));
          {Other, _} -> {taken, Text(Who(Other))}
        end;
      P2 -> Ask(P2)
    end
end.
`);

/** What one kind did since the last drain. */
export interface SystemMonitorCount {
  readonly kind: SystemMonitorKind;
  readonly count: number;
  /**
   * Milliseconds for `long_gc`/`long_schedule`, bytes of heap for `large_heap`; for the busy ports,
   * how many of the suspensions were of `who`.
   */
  readonly worst: number;
  /**
   * The process or port of the worst event, or the process suspended most often, as Erlang prints
   * it (`{<0.93.0>,my_server}`).
   */
  readonly who: string;
}

/** The node's answer: our counts, another process's system monitor, or nothing this time. */
export type SystemMonitorReading =
  | { readonly state: 'ours'; readonly counts: readonly SystemMonitorCount[] }
  | { readonly state: 'taken'; readonly holder: string }
  | { readonly state: 'gone' };

/** The `Opts` binding for these thresholds (`large_heap` in megabytes; the node converts). */
export function systemMonitorOptions(thresholds: SystemMonitorThresholds): Term {
  const options: Term[] = [];
  for (const kind of SYSTEM_MONITOR_KINDS) {
    const value = thresholds[kind];
    if (value === false) continue;
    options.push(typeof value === 'number' ? tuple(atom(kind), int(value)) : atom(kind));
  }
  return list(options);
}

/**
 * Reads the answer of a `drain`.
 * @throws Error when the answer is not one the expression gives.
 */
export function parseSystemMonitorReading(term: Term): SystemMonitorReading {
  if (term.type === 'atom' && term.name === 'gone') return { state: 'gone' };
  const pair = tupleOf(term, 2);
  const tag = pair?.[0]?.type === 'atom' ? pair[0].name : undefined;
  if (tag === 'taken') return { state: 'taken', holder: textOf(pair![1]) ?? '?' };
  const items = tag === 'ours' ? listElements(pair![1]) : undefined;
  if (!items) throw new Error('unexpected system monitor reading');
  const counts: SystemMonitorCount[] = [];
  for (const item of items) {
    const [kindTerm, count, worst, who] = tupleOf(item, 4) ?? [];
    const kind = SYSTEM_MONITOR_KINDS.find((k) => kindTerm?.type === 'atom' && kindTerm.name === k);
    if (kind === undefined) continue;
    counts.push({ kind, count: integerOf(count) ?? 0, worst: integerOf(worst) ?? 0, who: textOf(who) ?? '?' });
  }
  return { state: 'ours', counts };
}
