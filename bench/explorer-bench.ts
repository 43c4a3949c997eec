/**
 * What the explorer (`/api/explorer/...`, decision 0041) costs a managed node: the time of each
 * explorer call through `NodeExplorer` over one distribution connection from this process, on a
 * real node holding 1k, 10k and 100k extra idle processes (median and p90 of 15 runs after 3
 * warm-ups), and the bytes each call sends and receives: the external term format of the RPC's
 * arguments (the parsed expression and the bindings) and of its reply; each frame adds about 60
 * bytes of distribution header. Beside it, the way the explorer avoids: every process with the
 * same six items sent over the wire, to be sorted here.
 *
 *   npm run bench -- explorer
 */
import { atom, encodeTerm, int, list, string, tuple, tupleOf, type Term } from '@triad/erlang-dist';
import {
  ErlangExpression,
  ETS_TABLES_SOURCE,
  NodeConnection,
  NodeExplorer,
  PROCESS_DETAILS_SOURCE,
  TOP_PROCESSES_SOURCE,
} from '@triad/node-manager-service';
import { median, percentile, printTable } from './bench-utils.js';
import { erlAvailable, killAllErl, startErl, SHORT_HOST } from './erl-processes.js';

const COOKIE = 'explorerbench';
const RUNS = 15;
const WHOLE_LIST_SOURCE =
  '[{P, erlang:process_info(P, [registered_name, current_function, initial_call, memory, reductions, ' +
  'message_queue_len])} || P <- erlang:processes()].';

async function timeAsync(fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  if (!erlAvailable()) {
    console.log('skipped: erl is not installed');
    return;
  }
  const alive = `explorerbench_${process.pid}`;
  const node = await startErl(alive, COOKIE);
  const connection = await NodeConnection.open({
    node: `${alive}@${SHORT_HOST}`,
    cookie: COOKIE,
    localName: `explorerbench_rpc_${process.pid}@localhost`,
  });
  const rpc = {
    rpc: (_id: string, m: string, f: string, a?: readonly Term[], o?: { timeoutMs?: number }) =>
      connection.rpc(m, f, a ?? [], o),
  };
  const target = { id: 'bench', name: node.name };
  const explorer = new NodeExplorer(rpc, { timeoutMs: 60_000, callsPerNode: 1 });
  /** The arguments `erl_eval:exprs/2` gets for `source` with `bindings`, as bytes on the wire. */
  const requestBytes = async (source: string, bindings: [string, Term][]) => {
    const scanned = tupleOf(await connection.rpc('erl_scan', 'string', [string(source)]), 3)!;
    const parsed = tupleOf(await connection.rpc('erl_parse', 'parse_exprs', [scanned[1]!]), 2)!;
    return encodeTerm(list([parsed[1]!, list(bindings.map(([k, v]) => tuple(atom(k), v)))])).length;
  };
  const replyBytes = async (source: string, bindings: Record<string, Term>) =>
    encodeTerm(await new ErlangExpression(source).evaluate(rpc, 'bench', 60_000, bindings)).length;
  try {
    const rows: (string | number)[][] = [];
    let held = 0;
    for (const extra of [1_000, 10_000, 100_000]) {
      await new ErlangExpression(
        `[spawn(fun() -> receive stop -> ok end end) || _ <- lists:seq(1, ${extra - held})], ok.`,
      ).evaluate(rpc, 'bench', 60_000);
      held = extra;
      // A long-lived process (the top one by memory may be the RPC's own, gone after it).
      const named = await new ErlangExpression('pid_to_list(whereis(code_server)).').evaluate(rpc, 'bench');
      const pid = named.type === 'string' ? named.value : '';
      const calls: [string, () => Promise<unknown>, string, [string, Term][]][] = [
        [
          'top 20 by memory',
          () => explorer.topProcesses(target, 'memory', 20),
          TOP_PROCESSES_SOURCE,
          [
            ['Key', atom('memory')],
            ['Limit', int(20)],
          ],
        ],
        [
          'top 20 by queue',
          () => explorer.topProcesses(target, 'message_queue_len', 20),
          TOP_PROCESSES_SOURCE,
          [
            ['Key', atom('message_queue_len')],
            ['Limit', int(20)],
          ],
        ],
        [
          'top 200 by memory',
          () => explorer.topProcesses(target, 'memory', 200),
          TOP_PROCESSES_SOURCE,
          [
            ['Key', atom('memory')],
            ['Limit', int(200)],
          ],
        ],
        ['one process', () => explorer.process(target, pid), PROCESS_DETAILS_SOURCE, [['PidText', string(pid)]]],
        ['ETS, 100 largest', () => explorer.etsTables(target, 100), ETS_TABLES_SOURCE, [['Limit', int(100)]]],
        [
          '(avoided) every process sent',
          () => new ErlangExpression(WHOLE_LIST_SOURCE).evaluate(rpc, 'bench', 60_000),
          WHOLE_LIST_SOURCE,
          [],
        ],
      ];
      for (const [what, call, source, bindings] of calls) {
        const samples = await timeAsync(call);
        rows.push([
          `${extra} extra processes: ${what}`,
          median(samples),
          percentile(samples, 90),
          await requestBytes(source, bindings),
          await replyBytes(source, Object.fromEntries(bindings)),
        ]);
      }
    }
    printTable(['node and call', 'ms (median)', 'p90', 'bytes sent', 'bytes received'], rows);
  } finally {
    connection.close();
    await node.kill();
    killAllErl();
  }
}

await main();
