/**
 * What the system-limit alarms and node facts cost a managed node: the time of one evaluation of
 * `SYSTEM_LIMIT_EXPRESSION` (it walks every process for the longest message queue) and of
 * `NODE_FACTS_EXPRESSION`, on a real node holding 1k, 10k and 100k idle processes, measured over
 * the distribution protocol from this process (median and p90 of 15 runs after 3 warm-ups).
 *
 *   npm run bench -- system-limit
 */
import {
  NODE_FACTS_EXPRESSION,
  NodeConnection,
  SYSTEM_LIMIT_EXPRESSION,
  ErlangExpression,
  parseSystemLimitReading,
} from '@triad/node-manager-service';
import { median, percentile, printTable } from './bench-utils.js';
import { erlAvailable, killAllErl, startErl, SHORT_HOST } from './erl-processes.js';

const COOKIE = 'limitbench';
const RUNS = 15;

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
  const alive = `limitbench_${process.pid}`;
  const node = await startErl(alive, COOKIE, 'io:format("ready~n").');
  const connection = await NodeConnection.open({
    node: `${alive}@${SHORT_HOST}`,
    cookie: COOKIE,
    localName: `limitbench_rpc_${process.pid}@localhost`,
  });
  const rpc = { rpc: (_id: string, m: string, f: string, a?: readonly never[]) => connection.rpc(m, f, a ?? []) };
  try {
    const rows: (string | number)[][] = [];
    let held = 0;
    for (const target of [1_000, 10_000, 100_000]) {
      await new ErlangExpression(
        `[spawn(fun() -> receive stop -> ok end end) || _ <- lists:seq(1, ${target - held})], ok.`,
      ).evaluate(rpc, 'bench', 60_000);
      held = target;
      const reading = parseSystemLimitReading(await SYSTEM_LIMIT_EXPRESSION.evaluate(rpc, 'bench'), node.name);
      const limits = await timeAsync(() => SYSTEM_LIMIT_EXPRESSION.evaluate(rpc, 'bench', 30_000));
      const facts = await timeAsync(() => NODE_FACTS_EXPRESSION.evaluate(rpc, 'bench', 30_000));
      rows.push([
        `${target} extra processes (${reading.process_limit?.value.toFixed(1)} % of limit)`,
        median(limits),
        percentile(limits, 90),
        median(facts),
        percentile(facts, 90),
      ]);
    }
    printTable(['node', 'limits ms (median)', 'p90', 'facts ms (median)', 'p90'], rows);
  } finally {
    connection.close();
    await node.kill();
    killAllErl();
  }
}

await main();
