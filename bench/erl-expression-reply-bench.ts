/**
 * What an expression's answer costs the node manager: the system-limit reading (every 15 s per
 * UP node) and the system monitor drain evaluated on a real node, as `ErlangExpression` runs them
 * (inside a fun: only the value comes back) and as `erl_eval:exprs` answered before (the value and
 * every top-level binding, funs with their parsed bodies). Reports the wall time and this
 * process' CPU per call (median of 40 after 5 warm-ups) and the answer's size. Decision 0044.
 *
 *   npm run bench -- erl-expression-reply
 */
import { performance } from 'node:perf_hooks';
import { string, tupleOf, type Term } from '@triad/erlang-dist';
import {
  ErlangExpression,
  NodeConnection,
  SYSTEM_LIMIT_EXPRESSION,
  SYSTEM_MONITOR_EXPRESSION,
} from '@triad/node-manager-service';
import { atom, int, list, tuple } from '@triad/erlang-dist';
import { median, printTable } from './bench-utils.js';
import { erlAvailable, killAllErl, startErl, SHORT_HOST } from './erl-processes.js';

const COOKIE = 'replybench';
const RUNS = 40;

async function main(): Promise<void> {
  if (!erlAvailable()) {
    console.log('skipped: erl is not installed');
    return;
  }
  const alive = `replybench_${process.pid}`;
  const node = await startErl(alive, COOKIE, 'io:format("ready~n").');
  const connection = await NodeConnection.open({
    node: `${alive}@${SHORT_HOST}`,
    cookie: COOKIE,
    localName: `replybench_rpc_${process.pid}@localhost`,
  });
  const call = (m: string, f: string, a: readonly Term[]) => connection.rpc(m, f, a);
  const rpc = { rpc: (_id: string, m: string, f: string, a?: readonly Term[]) => call(m, f, a ?? []) };
  const bindings: Record<string, Term> = { LeaseMs: int(60_000), Mode: atom('stop'), Opts: list([]) };
  const bound = list(
    Object.keys(bindings)
      .sort()
      .map((name) => tuple(atom(name), bindings[name]!)),
  );
  try {
    const rows: (string | number)[][] = [];
    for (const [label, expression] of [
      ['system-limit reading', SYSTEM_LIMIT_EXPRESSION],
      ['system monitor stop', SYSTEM_MONITOR_EXPRESSION],
    ] as const) {
      const scanned = tupleOf(await call('erl_scan', 'string', [string(expression.source)]), 3)!;
      const parsed = tupleOf(await call('erl_parse', 'parse_exprs', [scanned[1]!]), 2)![1]!;
      const before = () => call('erl_eval', 'exprs', [parsed, bound]);
      const now = () => expression.evaluate(rpc, 'bench', 30_000, bindings);
      for (const [how, run] of [
        ['value and bindings (before)', before],
        ['value only (now)', now],
      ] as const) {
        for (let i = 0; i < 5; i++) await run();
        const wall: number[] = [];
        const cpu: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          const startCpu = process.cpuUsage();
          const start = performance.now();
          await run();
          wall.push(performance.now() - start);
          const used = process.cpuUsage(startCpu);
          cpu.push((used.user + used.system) / 1000);
        }
        const size = await new ErlangExpression('byte_size(term_to_binary(T)).').evaluate(rpc, 'bench', 30_000, {
          T: await run(),
        });
        rows.push([label, how, median(wall), median(cpu), size.type === 'integer' ? Number(size.value) : '?']);
      }
    }
    printTable(['expression', 'answer', 'wall ms (median)', 'our CPU ms (median)', 'answer bytes'], rows);
  } finally {
    connection.close();
    await node.kill();
    killAllErl();
  }
}

await main();
