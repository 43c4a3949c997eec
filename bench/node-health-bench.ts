/**
 * What watching idle nodes costs the node manager, and how fast it sees them die or freeze
 * (issue 13). About 3 minutes; prints numbers, asserts nothing.
 *
 *   npm run bench -- node-health          (BENCH_NODES=40 by default)
 *
 * 1. Starts BENCH_NODES `erl -sname` nodes, managed by one `ErlangNodeConnector` (no collectors,
 *    no HTTP). Measures this process' CPU time (`process.cpuUsage`, user + system) over 10 s
 *    windows, three of each kind after a warm-up round, interleaved: health calls every 1 s with a
 *    2 s timeout (the defaults; one timer per node), health calls from one connector per node (so
 *    one timer each at its own phase: a check that timing is not the cost), and none (a 1 h
 *    interval). The health calls' cost is the median of a kind less the median without them, as %
 *    of one core per node and projected to 200 nodes.
 * 2. `kill -STOP` of 5 nodes at once: time until the connector reports each DOWN (then SIGCONT);
 *    `kill -9` of 5 nodes one after the other: time until DOWN or STOPPED. Timed from just before
 *    the signal to the state listener's call.
 * Every node started is killed by pid at the end, on error, on exit and on SIGINT/SIGTERM.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { ErlangNodeConnector } from '@triad/node-manager-service';
import { median, printTable } from './bench-utils.js';
import { erlAvailable, killAllErl, startErlNodes, type ErlProcess } from './erl-processes.js';

const NODES = Number(process.env['BENCH_NODES'] ?? 40);
const COOKIE = 'healthbench';
const WINDOW_MS = 10_000;
const SIGNALLED = 5;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A connector managing `nodes` as n0, n1, ...; `states` gets every change with its time. */
async function manage(nodes: readonly ErlProcess[], healthIntervalMs?: number) {
  const changes: { id: string; state: string; at: number }[] = [];
  const connector = new ErlangNodeConnector({
    ...(healthIntervalMs === undefined ? {} : { timing: { healthIntervalMs } }),
    onStateChange: (id, state) => changes.push({ id, state, at: performance.now() }),
  });
  const states = await Promise.all(
    nodes.map((n, i) => connector.connect({ id: `n${i}`, name: n.name, cookie: COOKIE })),
  );
  if (states.some((s) => s !== 'UP')) throw new Error(`not all UP: ${states.join(' ')}`);
  return { connector, changes };
}

/** How a window manages the nodes. */
type Mode = 'one' | 'per-node' | 'off';

/**
 * CPU ms of this process over one window, after 2 s for the connections to settle and a gc.
 * `one`: one connector, as the service runs; `per-node`: one connector per node; `off`: one
 * connector with a 1 h health interval.
 */
async function cpuWindow(nodes: readonly ErlProcess[], mode: Mode): Promise<number> {
  const managed =
    mode === 'per-node'
      ? await Promise.all(nodes.map((node) => manage([node])))
      : [await manage(nodes, mode === 'off' ? 3_600_000 : undefined)];
  await sleep(2_000);
  (globalThis as { gc?: () => void }).gc?.();
  const start = process.cpuUsage();
  await sleep(WINDOW_MS);
  const used = process.cpuUsage(start);
  await Promise.all(managed.map(({ connector }) => connector.close()));
  return (used.user + used.system) / 1000;
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

if (!erlAvailable()) {
  console.log('skipped: erl is not installed (erlang-base)');
} else {
  try {
    console.log(`${os.availableParallelism()} cores, load ${os.loadavg()[0]!.toFixed(2)} at the start, ${NODES} nodes`);
    const nodes = await startErlNodes(`health${process.pid}`, NODES, COOKIE, 10);
    const windows: Record<Mode, number[]> = { one: [], 'per-node': [], off: [] };
    // A first round warms up (compiles and optimises the paths) and is not counted.
    for (let round = 0; round < 4; round++) {
      for (const mode of ['one', 'per-node', 'off'] as const) {
        const ms = await cpuWindow(nodes, mode);
        if (round > 0) windows[mode].push(ms);
      }
    }
    const perNode = (ms: number) => (100 * ms) / WINDOW_MS / NODES;
    const mid = (mode: Mode) => median([...windows[mode]].sort((a, b) => a - b));
    const row = (label: string, mode: Mode) => {
      const calls = mid(mode) - mid('off');
      return [
        label,
        windows[mode].map((ms) => ms.toFixed(1)).join(', '),
        mode === 'off' ? '' : `${perNode(calls).toFixed(4)} (200 nodes: ${(200 * perNode(calls)).toFixed(1)} %)`,
      ];
    };
    printTable(
      ['CPU of this process per 10 s', 'windows (ms)', 'health calls: % of a core per node'],
      [
        row('health calls, one connector', 'one'),
        row('health calls, a connector per node', 'per-node'),
        row('no health calls', 'off'),
      ],
    );

    const { connector, changes } = await manage(nodes);
    await sleep(1_500);
    const frozen = nodes.slice(0, SIGNALLED);
    const stoppedAt = performance.now();
    for (const node of frozen) node.signal('SIGSTOP');
    const freeze: number[] = [];
    for (let i = 0; i < SIGNALLED; i++) {
      await until(
        () => changes.some((c) => c.id === `n${i}` && c.state === 'DOWN' && c.at > stoppedAt),
        10_000,
        `n${i} DOWN`,
      );
      freeze.push(changes.find((c) => c.id === `n${i}` && c.state === 'DOWN' && c.at > stoppedAt)!.at - stoppedAt);
    }
    for (const node of frozen) node.signal('SIGCONT');
    const kill: number[] = [];
    for (let i = SIGNALLED; i < 2 * SIGNALLED; i++) {
      const before = performance.now();
      await nodes[i]!.kill();
      await until(
        () => changes.some((c) => c.id === `n${i}` && c.state !== 'UP' && c.at > before),
        5_000,
        `n${i} down`,
      );
      kill.push(changes.find((c) => c.id === `n${i}` && c.state !== 'UP' && c.at > before)!.at - before);
    }
    await connector.close();
    freeze.sort((a, b) => a - b);
    kill.sort((a, b) => a - b);
    printTable(
      ['detection', 'min ms', 'median ms', 'max ms'],
      [
        [
          `kill -STOP of ${SIGNALLED} at once -> DOWN`,
          freeze[0]!.toFixed(0),
          median(freeze).toFixed(0),
          freeze.at(-1)!.toFixed(0),
        ],
        [
          `kill -9, ${SIGNALLED} one by one -> DOWN/STOPPED`,
          kill[0]!.toFixed(1),
          median(kill).toFixed(1),
          kill.at(-1)!.toFixed(1),
        ],
      ],
    );
    console.log(`load ${os.loadavg()[0]!.toFixed(2)} at the end`);
  } finally {
    killAllErl();
  }
}
