/**
 * Issue 5's measurements of the node manager against real local Erlang nodes, beside Erlang's own
 * figures taken in the same run. About a minute; prints numbers, asserts nothing.
 *
 *   node --conditions=source --import tsx bench/erlang-nodes-bench.ts      (or: npm run bench -- erlang-nodes)
 *
 * 1. Starts 50 `erl -sname` nodes (10 at a time), then measures the memory of 50 managed
 *    connections in this process (an `ErlangNodeConnector`; heapUsed + external after gc, minus
 *    the same before, divided by 50).
 * 2. Starts the node manager (`startNodeManagerServer`, SQLite in a temporary directory), sends
 *    the 50 `POST /api/topo/action/add-node` at once and polls `GET /api/topo/node` every 5 ms
 *    until all 50 are UP.
 * 3. `kill -9` of 10 nodes, one after the other: time to DOWN/STOPPED in the API, polling
 *    `GET /api/topo/node/:id` every 5 ms (and, beside it, when the core published the change as a
 *    `node_state` event). Then `kill -STOP` of 5 nodes at once: time to DOWN in the API (same
 *    polling); SIGCONT afterwards.
 * 4. RPC round trips (`erlang:node()`) on one `NodeConnection`: one call at a time, and with
 *    1,000 calls in flight (a sliding window); beside each, this process' CPU time per call
 *    (`process.cpuUsage`, user + system: less sensitive to other load than wall-clock rates).
 *    The floor for one-at-a-time: a trivial TCP ping-pong (90-byte messages, NoDelay) between this
 *    process and a child Node echo server on loopback.
 * 5. Erlang's own: a third node runs N `rpc:call(Other, erlang, node, [])` timed with `timer:tc`,
 *    one at a time, then from 1,000 processes at once (what the target node sustains in flight);
 *    and a node that `monitor_node`s 5 others prints `os:system_time(microsecond)` on each
 *    `{nodedown, _}`; the bench takes the wall clock (`performance.timeOrigin + now()`) just before
 *    each `kill -9`, and the latency is the difference (same machine, same clock).
 * Every node started is killed by pid at the end, on error, on exit and on SIGINT/SIGTERM.
 * `--rpc-only` runs only 4, 5's rpc:call and the ping-pong floor on two nodes (about 15 s).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  ErlangNodeConnector,
  NodeConnection,
  startNodeManagerServer,
  type NodeManagerEvent,
  type RunningNodeManagerServer,
} from '@triad/node-manager-service';
import { median, printTable } from './bench-utils.js';
import { erlAvailable, killAllErl, startErl, startErlNodes, type ErlProcess } from './erl-processes.js';

const NODES = 50;
const KILLS = 10;
const FREEZES = 5;
const MONITORED = 5;
const COOKIE = 'bench_cookie';
const PASSWORD = 'benchpw1';
const AUTH = { authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}` };
const PREFIX = `bnch${process.pid}`;
const RPC_SEQUENTIAL = 20_000;
const RPC_IN_FLIGHT_TOTAL = 50_000;
const RPC_WINDOW = 1_000;
const ERLANG_RPC_CALLS = 20_000;
const PING_PONGS = 20_000;
const RPC_ONLY = process.argv.includes('--rpc-only');

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const ms = (from: number) => performance.now() - from;
const wallMicros = () => (performance.timeOrigin + performance.now()) * 1000;
const fmtMs = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const rate = (calls: number, elapsedMs: number) => Math.round((calls * 1000) / elapsedMs);
/** Microseconds of this process' CPU (user + system) per operation since `from`. */
const cpuPerOp = (from: NodeJS.CpuUsage, ops: number) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / ops;
};

/** A rate with the CPU this process spent per operation. */
interface Measured {
  readonly perSecond: number;
  readonly cpuMicros: number;
}

/** `gc()` from --expose-gc, or turned on at run time when the flag was not given. */
function gcFunction(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

async function heapPlusExternal(gc: () => void): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    await sleep(20);
  }
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

async function memoryPerConnection(nodes: readonly ErlProcess[]): Promise<number> {
  const gc = gcFunction();
  // Warm-up: code paths compiled and modules loaded before the baseline.
  const warm = new ErlangNodeConnector({ localName: `${PREFIX}_warm@localhost` });
  await Promise.all(nodes.slice(0, 2).map((n, i) => warm.connect({ id: `w${i}`, name: n.name, cookie: COOKIE })));
  await warm.close();
  const before = await heapPlusExternal(gc);
  const connector = new ErlangNodeConnector({ localName: `${PREFIX}_mem@localhost` });
  try {
    const states = await Promise.all(
      nodes.map((n, i) => connector.connect({ id: `m${i}`, name: n.name, cookie: COOKIE })),
    );
    if (states.some((s) => s !== 'UP')) throw new Error(`memory: not every node came UP (${states.join(',')})`);
    const after = await heapPlusExternal(gc);
    return (after - before) / nodes.length;
  } finally {
    await connector.close();
  }
}

async function api<T>(server: RunningNodeManagerServer, url: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${url}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? AUTH : { ...AUTH, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

interface ApiNode {
  readonly id: string;
  readonly name: string;
  readonly state: string;
}

/** Polls `check` every 5 ms; resolves with the elapsed ms since `from` once it holds. */
async function pollUntil(from: number, limitMs: number, what: string, check: () => Promise<boolean>): Promise<number> {
  for (;;) {
    if (await check()) return ms(from);
    if (ms(from) > limitMs) throw new Error(`timed out after ${limitMs} ms waiting for ${what}`);
    await sleep(5);
  }
}

async function addAll(
  server: RunningNodeManagerServer,
  nodes: readonly ErlProcess[],
): Promise<{ allUpMs: number; lastReplyMs: number; ids: Map<string, string> }> {
  const ids = new Map<string, string>();
  const start = performance.now();
  let lastReplyMs = 0;
  const posts = Promise.all(
    nodes.map(async (n) => {
      const node = await api<ApiNode>(server, '/api/topo/action/add-node', { name: n.name, cookie: COOKIE });
      ids.set(n.name, node.id);
      lastReplyMs = Math.max(lastReplyMs, ms(start));
    }),
  );
  let failed: Error | undefined;
  posts.catch((error: unknown) => (failed = new Error('adding the nodes failed', { cause: error })));
  const allUpMs = await pollUntil(start, 20_000, 'all nodes UP', async () => {
    if (failed) throw failed;
    const listed = await api<ApiNode[]>(server, '/api/topo/node');
    return listed.length === nodes.length && listed.every((n) => n.state === 'UP');
  });
  await posts;
  return { allUpMs, lastReplyMs, ids };
}

async function killSamples(
  server: RunningNodeManagerServer,
  victims: readonly ErlProcess[],
  ids: Map<string, string>,
): Promise<{ api: number[]; event: number[] }> {
  const apiMs: number[] = [];
  const eventMs: number[] = [];
  let watched: { id: string; start: number } | undefined;
  const unsubscribe = server.core.events.subscribe((event: NodeManagerEvent) => {
    if (event.type === 'node_state' && watched && event.nodeId === watched.id && event.state !== 'UP') {
      eventMs.push(ms(watched.start));
      watched = undefined;
    }
  });
  try {
    for (const victim of victims) {
      const id = ids.get(victim.name)!;
      const start = performance.now();
      watched = { id, start };
      victim.signal('SIGKILL');
      apiMs.push(
        await pollUntil(
          start,
          10_000,
          `${victim.name} to leave UP`,
          async () => (await api<ApiNode>(server, `/api/topo/node/${id}`)).state !== 'UP',
        ),
      );
      await victim.kill();
      await sleep(50);
    }
  } finally {
    unsubscribe();
  }
  return { api: apiMs.sort((a, b) => a - b), event: eventMs.sort((a, b) => a - b) };
}

async function freezeSamples(
  server: RunningNodeManagerServer,
  frozen: readonly ErlProcess[],
  ids: Map<string, string>,
): Promise<number[]> {
  const start = performance.now();
  for (const node of frozen) node.signal('SIGSTOP');
  try {
    const samples = await Promise.all(
      frozen.map((node) => {
        const id = ids.get(node.name)!;
        return pollUntil(
          start,
          15_000,
          `${node.name} DOWN after SIGSTOP`,
          async () => (await api<ApiNode>(server, `/api/topo/node/${id}`)).state === 'DOWN',
        );
      }),
    );
    return samples.sort((a, b) => a - b);
  } finally {
    for (const node of frozen) node.signal('SIGCONT');
  }
}

async function rpcRates(target: ErlProcess): Promise<{ sequential: Measured; inFlight: Measured }> {
  const connection = await NodeConnection.open({
    node: target.name,
    cookie: COOKIE,
    localName: `${PREFIX}_rpc@localhost`,
  });
  try {
    for (let i = 0; i < 2_000; i++) await connection.rpc('erlang', 'node');
    let start = performance.now();
    let cpu = process.cpuUsage();
    for (let i = 0; i < RPC_SEQUENTIAL; i++) await connection.rpc('erlang', 'node');
    const sequential = { perSecond: rate(RPC_SEQUENTIAL, ms(start)), cpuMicros: cpuPerOp(cpu, RPC_SEQUENTIAL) };
    start = performance.now();
    cpu = process.cpuUsage();
    let sent = 0;
    const worker = async () => {
      while (sent < RPC_IN_FLIGHT_TOTAL) {
        sent++;
        await connection.rpc('erlang', 'node', [], { timeoutMs: 30_000 });
      }
    };
    await Promise.all(Array.from({ length: RPC_WINDOW }, worker));
    return {
      sequential,
      inFlight: { perSecond: rate(RPC_IN_FLIGHT_TOTAL, ms(start)), cpuMicros: cpuPerOp(cpu, RPC_IN_FLIGHT_TOTAL) },
    };
  } finally {
    connection.close();
  }
}

/** Echo server for the ping-pong floor: a separate Node process, as an Erlang node is. */
const ECHO_SERVER = `const s = require('node:net').createServer((c) => {
  c.setNoDelay(true);
  c.on('data', (d) => c.write(d));
});
s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;

/** One-at-a-time round trips of 90-byte messages to a child Node echo server on loopback. */
async function pingPongFloor(): Promise<Measured> {
  const child = spawn(process.execPath, ['-e', ECHO_SERVER], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (text: Buffer) => resolve(Number(text.toString().trim())));
      child.once('exit', () => reject(new Error('echo server exited')));
    });
    const socket = new Socket();
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.connect(port, '127.0.0.1', resolve);
    });
    const message = Buffer.alloc(90, 7);
    // Each round trip ends when all 90 bytes came back (TCP may split them).
    const roundTrips = (n: number) =>
      new Promise<void>((resolve) => {
        let left = n;
        let pending = message.length;
        socket.removeAllListeners('data');
        socket.on('data', (chunk: Buffer) => {
          pending -= chunk.length;
          if (pending > 0) return;
          pending = message.length;
          if (--left === 0) resolve();
          else socket.write(message);
        });
        socket.write(message);
      });
    await roundTrips(2_000);
    const start = performance.now();
    const cpu = process.cpuUsage();
    await roundTrips(PING_PONGS);
    const measured = { perSecond: rate(PING_PONGS, ms(start)), cpuMicros: cpuPerOp(cpu, PING_PONGS) };
    socket.destroy();
    return measured;
  } finally {
    child.kill('SIGKILL');
  }
}

const fmtRate = (m: Measured, unit: string) => `${m.perSecond} ${unit}/s, ${m.cpuMicros.toFixed(1)} µs CPU each`;
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const TABLE_HEADERS = [
  'measure (real local nodes, shared 2-core machine)',
  'node manager',
  'Erlang/OTP own',
  'aim (issue 5)',
];

/** The RPC rows: ours beside Erlang's own, and the ping-pong floor. */
async function measureRpcRows(
  target: ErlProcess,
  other: ErlProcess,
): Promise<{ rows: string[][]; loadBefore: string }> {
  const loadBefore = loadAverage();
  const ours = await rpcRates(target);
  const erlang = await erlangRpcRate(other);
  const floor = await pingPongFloor();
  const rows = [
    [
      'RPC erlang:node(), one at a time, one connection',
      fmtRate(ours.sequential, 'calls'),
      `rpc:call: ${erlang.sequential} calls/s`,
      "at least Erlang's",
    ],
    [
      `RPC erlang:node(), ${RPC_WINDOW} in flight, one connection`,
      fmtRate(ours.inFlight, 'calls'),
      `rpc:call x${RPC_WINDOW} procs: ${erlang.inFlight} calls/s`,
      '50000 calls/s',
    ],
    ['floor: Node TCP ping-pong, 90 B, two processes, loopback', fmtRate(floor, 'round trips'), '', ''],
  ];
  return { rows, loadBefore };
}

/** `--rpc-only`: the RPC rows on two fresh nodes. */
async function rpcOnly(): Promise<void> {
  const [target, other] = await startErlNodes(PREFIX, 2, COOKIE, 2);
  const rpc = await measureRpcRows(target!, other!);
  console.log('');
  printTable(TABLE_HEADERS, rpc.rows);
  console.log(`load average before / after: ${rpc.loadBefore} / ${loadAverage()}`);
}

/** Erlang list of node-name atoms: `['a@h','b@h']`. */
const atoms = (names: readonly string[]) => `[${names.map((n) => `'${n}'`).join(',')}]`;

/** Erlang's own `rpc:call` between two nodes: one at a time, and from RPC_WINDOW processes at once. */
async function erlangRpcRate(other: ErlProcess): Promise<{ sequential: number; inFlight: number }> {
  const perProcess = Math.ceil(RPC_IN_FLIGHT_TOTAL / RPC_WINDOW);
  const script = `Other = '${other.name}', true = net_kernel:connect_node(Other),
    Loop = fun L(0) -> ok; L(K) -> Other = rpc:call(Other, erlang, node, []), L(K - 1) end,
    Loop(2000), io:format("ready~n"),
    {Us, ok} = timer:tc(fun() -> Loop(${ERLANG_RPC_CALLS}) end),
    io:format("rpc_us ~p~n", [Us]),
    Self = self(),
    {ParUs, _} = timer:tc(fun() ->
      Pids = [spawn(fun() -> Loop(${perProcess}), Self ! {done, self()} end) || _ <- lists:seq(1, ${RPC_WINDOW})],
      [receive {done, P} -> ok end || P <- Pids] end),
    io:format("par_us ~p~n", [ParUs]), halt().`;
  const driver = await startErl(`${PREFIX}_rpcdrv`, COOKIE, script);
  try {
    const micros = async (tag: string) =>
      Number((await driver.line(new RegExp(`^${tag} \\d+$`), 60_000)).split(' ')[1]);
    const sequential = rate(ERLANG_RPC_CALLS, (await micros('rpc_us')) / 1000);
    const inFlight = rate(perProcess * RPC_WINDOW, (await micros('par_us')) / 1000);
    return { sequential, inFlight };
  } finally {
    await driver.kill();
  }
}

async function erlangMonitorNodeMs(targets: readonly ErlProcess[]): Promise<number[]> {
  const script = `Targets = ${atoms(targets.map((t) => t.name))},
    [true = net_kernel:connect_node(T) || T <- Targets], [true = erlang:monitor_node(T, true) || T <- Targets],
    io:format("ready~n"),
    Wait = fun W(0) -> ok;
               W(K) -> receive {nodedown, N} -> io:format("down ~s ~p~n", [N, os:system_time(microsecond)]) end,
                       W(K - 1)
           end,
    Wait(${targets.length}), halt().`;
  const driver = await startErl(`${PREFIX}_mondrv`, COOKIE, script);
  const samples: number[] = [];
  try {
    for (const target of targets) {
      const before = wallMicros();
      target.signal('SIGKILL');
      const line = await driver.line(new RegExp(`^down ${target.name} \\d+$`), 10_000);
      samples.push((Number(line.split(' ')[2]) - before) / 1000);
      await target.kill();
      await sleep(50);
    }
  } finally {
    await driver.kill();
  }
  return samples.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  if (!erlAvailable()) {
    console.log('skipped: erl is not on PATH (install erlang-base)');
    return;
  }
  if (RPC_ONLY) {
    try {
      return await rpcOnly();
    } finally {
      killAllErl();
    }
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'nm-erlang-bench-'));
  // Also when SIGINT/SIGTERM end the process (erl-processes.ts exits from its handlers).
  process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  let server: RunningNodeManagerServer | undefined;
  try {
    const start = performance.now();
    const nodes = await startErlNodes(PREFIX, NODES, COOKIE, 10);
    console.log(`started ${NODES} erl -sname nodes in ${fmtMs(ms(start))} ms (10 at a time)`);
    const bytesPerConnection = await memoryPerConnection(nodes);

    server = await startNodeManagerServer(
      { port: 0, dataDir },
      { env: { TRIAD_LOG_LEVEL: 'silent', TRIAD_ADMIN_PASSWORD: PASSWORD, TRIAD_SCRYPT_COST: '16' } },
    );
    const added = await addAll(server, nodes);
    const killed = await killSamples(server, nodes.slice(0, KILLS), added.ids);
    const frozen = await freezeSamples(server, nodes.slice(KILLS, KILLS + FREEZES), added.ids);
    await server.close();
    server = undefined;

    // Only the nodes the RPC and Erlang figures need keep running from here (idle beams still cost CPU).
    const [rpcTarget, rpcOther, ...rest] = nodes.slice(KILLS + FREEZES);
    const monitored = rest.slice(0, MONITORED);
    await Promise.all([...nodes.slice(KILLS, KILLS + FREEZES), ...rest.slice(MONITORED)].map((n) => n.kill()));
    await sleep(1_000);
    const rpc = await measureRpcRows(rpcTarget!, rpcOther!);
    const monitorMs = await erlangMonitorNodeMs(monitored);

    console.log('');
    printTable(TABLE_HEADERS, [
      [
        `add-node x${NODES} at once -> all UP in GET /api/topo/node`,
        `${fmtMs(added.allUpMs)} ms (last reply ${fmtMs(added.lastReplyMs)} ms)`,
        '',
        'within 2 s',
      ],
      [
        `kill -9 -> DOWN/STOPPED in the API, p50 / max (n=${KILLS}, 5 ms polls)`,
        `${fmtMs(median(killed.api))} / ${fmtMs(killed.api.at(-1)!)} ms`,
        `monitor_node: ${fmtMs(median(monitorMs))} / ${fmtMs(monitorMs.at(-1)!)} ms (n=${MONITORED})`,
        'within 50 ms',
      ],
      [
        `  same, node_state event published by the core`,
        `${fmtMs(median(killed.event))} / ${fmtMs(killed.event.at(-1)!)} ms`,
        '',
        '',
      ],
      [
        `kill -STOP -> DOWN in the API, p50 / max (n=${FREEZES})`,
        `${fmtMs(median(frozen))} / ${fmtMs(frozen.at(-1)!)} ms`,
        '75 s tick timeout',
        'within 5 s',
      ],
      ...rpc.rows,
      [
        `memory per managed connection (heapUsed+external, ${NODES} conns)`,
        `${(bytesPerConnection / 1024).toFixed(1)} KiB`,
        '',
        '',
      ],
    ]);
    console.log(`load average before / after the RPC rows: ${rpc.loadBefore} / ${loadAverage()}`);
  } finally {
    await server?.close().catch(() => {});
    killAllErl();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
