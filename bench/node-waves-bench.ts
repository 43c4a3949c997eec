/**
 * Issue 13's "nodes killed and restarted in waves lose no alarm and no state change and memory
 * stays flat", against real local Erlang nodes. Prints numbers, asserts nothing; bounded to 3 min.
 *
 *   npm run bench -- node-waves              (BENCH_NODES=40 nodes, BENCH_WAVES=5 waves by default)
 *
 * 1. Starts BENCH_NODES `erl -sname` nodes (10 at a time; one scheduler each, no busy waiting,
 *    through ERL_FLAGS), a node manager (`startNodeManagerServer`, SQLite in a temporary
 *    directory, `nodeDownAlarmAfterMs` 0 so every kill must raise `node_down` at once) and adds
 *    them with `POST /api/topo/action/add-node`; waits until `GET /api/topo/node` shows all UP.
 * 2. BENCH_WAVES waves, each over the next 20 nodes (N/2 when N < 40), round robin: `kill -9` of
 *    the wave; wait until the API shows each DOWN/STOPPED and `GET /api/alarm` lists one active
 *    `node_down` per victim; restart them under the same names; wait until the API shows them UP
 *    and `GET /api/alarm` lists no `node_down`.
 * 3. Counts from the service's own records: the core's event bus (`node_state` and `alarm`
 *    events) and the alarm store. Expected per kill: one `node_down` raised, one cleared, a
 *    DOWN/STOPPED event then an UP event; nothing for the nodes left alone. Lost = expected and
 *    never seen; extra = seen beyond that (a second raise, a flap of an untouched node).
 * 4. After each wave, a forced gc, then this process' RSS and heapUsed (memory flat or not), and
 *    the times kill -> DOWN/STOPPED event and restart (spawn of erl) -> UP event, p50 / p99.
 * 5. The projection to 200 nodes: per-node memory of this process (heapUsed + external grown since
 *    before the nodes were added, divided by N), per-node beam RSS, and wave times (which do not
 *    depend on N: 20 a wave).
 * Every node started is killed by pid at the end, on error, on exit and on SIGINT/SIGTERM.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  startNodeManagerServer,
  type NodeManagerEvent,
  type RunningNodeManagerServer,
} from '@triad/node-manager-service';
import { median, percentile, printTable } from './bench-utils.js';
import { erlAvailable, killAllErl, startErl, type ErlProcess } from './erl-processes.js';

const NODES = Number(process.env.BENCH_NODES ?? 40);
const WAVES = Number(process.env.BENCH_WAVES ?? 5);
const WAVE_SIZE = NODES >= 40 ? 20 : Math.max(1, Math.floor(NODES / 2));
const START_BATCH = 10;
const COOKIE = 'wavebench';
const PASSWORD = 'benchpw1';
const AUTH = { authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}` };
const PREFIX = `wave${process.pid}`;
const NODE_DOWN = 'node_down';
/** The whole run stops (and reports what it has) after this long. */
const RUN_BUDGET_MS = 170_000;
const PHASE_LIMIT_MS = 30_000;
/** Small beams: one scheduler of each kind, no busy waiting, so many fit on 2 cores. */
const ERL_FLAGS = '+S 1:1 +SDcpu 1:1 +SDio 1 +A 1 +sbwt none +sbwtdcpu none +sbwtdio none';

const runStart = performance.now();
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const since = (from: number) => performance.now() - from;
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const fmtMs = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface ApiNode {
  readonly id: string;
  readonly name: string;
  readonly state: string;
}

interface ApiAlarm {
  readonly alarmId: string;
  readonly src: { readonly nodeId: string };
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

/** Polls `check` every 20 ms until it holds; false after `limitMs` (or the run's budget). */
async function waitFor(limitMs: number, check: () => Promise<boolean> | boolean): Promise<boolean> {
  const start = performance.now();
  for (;;) {
    if (await check()) return true;
    if (since(start) > limitMs || since(runStart) > RUN_BUDGET_MS) return false;
    await sleep(20);
  }
}

/** Active `node_down` alarms in `GET /api/alarm`, by node id. */
async function nodeDownAlarms(server: RunningNodeManagerServer): Promise<Map<string, number>> {
  const { alarms } = await api<{ alarms: ApiAlarm[] }>(server, '/api/alarm?limit=1000');
  const byNode = new Map<string, number>();
  for (const a of alarms) if (a.alarmId === NODE_DOWN) byNode.set(a.src.nodeId, (byNode.get(a.src.nodeId) ?? 0) + 1);
  return byNode;
}

/** What the event bus said about one node since the counters were last reset. */
interface Seen {
  raised: number;
  cleared: number;
  down: number;
  up: number;
  firstDownAt?: number;
  upAt?: number;
}

/** Counts `node_state` and `node_down` alarm events per node id. */
function watchEvents(server: RunningNodeManagerServer) {
  const seen = new Map<string, Seen>();
  /** Every alarm raised during the whole run, by alarm id (never reset). */
  const raisedById = new Map<string, number>();
  const of = (id: string) => {
    let s = seen.get(id);
    if (!s) seen.set(id, (s = { raised: 0, cleared: 0, down: 0, up: 0 }));
    return s;
  };
  const unsubscribe = server.core.events.subscribe((event: NodeManagerEvent) => {
    const now = performance.now();
    if (event.type === 'node_state' && !event.deleted) {
      const s = of(event.nodeId);
      if (event.state === 'UP') {
        s.up++;
        s.upAt ??= now;
      } else if (event.state === 'DOWN' || event.state === 'STOPPED') {
        // DOWN then STOPPED is one loss of the node: the first is the one timed and counted.
        if (s.firstDownAt === undefined || (s.upAt !== undefined && s.upAt > s.firstDownAt)) s.down++;
        s.firstDownAt ??= now;
      }
    } else if (event.type === 'alarm') {
      const alarm = event.alarm as ApiAlarm;
      if (event.action === 'raised') raisedById.set(alarm.alarmId, (raisedById.get(alarm.alarmId) ?? 0) + 1);
      if (alarm.alarmId !== NODE_DOWN) return;
      if (event.action === 'raised') of(alarm.src.nodeId).raised++;
      else if (event.action === 'cleared') of(alarm.src.nodeId).cleared++;
    }
  });
  return { seen, of, raisedById, reset: () => seen.clear(), unsubscribe };
}

/** Starts `alive` again; a name EPMD still holds for a moment gets a few more tries. */
async function restartErl(alive: string, readyAt: Map<string, number>): Promise<ErlProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      const node = await startErl(alive, COOKIE);
      readyAt.set(node.name, performance.now());
      return node;
    } catch (error) {
      if (attempt >= 3) throw error;
      await sleep(300);
    }
  }
}

function beamRssBytes(nodes: readonly ErlProcess[]): number {
  const pids = nodes.map((n) => n.child.pid).filter((p): p is number => p !== undefined);
  const out = execFileSync('ps', ['-o', 'rss=', '-p', pids.join(',')], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => l.trim() !== '')
    .reduce((sum, l) => sum + Number(l) * 1024, 0);
}

async function memoryAfterGc(): Promise<NodeJS.MemoryUsage> {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) {
    gc?.();
    await sleep(20);
  }
  return process.memoryUsage();
}

interface Totals {
  kills: number;
  lostRaise: number;
  extraRaise: number;
  lostClear: number;
  extraClear: number;
  lostDown: number;
  extraDown: number;
  lostUp: number;
  extraUp: number;
  storeMismatch: number;
}

async function main(): Promise<void> {
  if (!erlAvailable()) {
    console.log('skipped: erl is not on PATH (install erlang-base)');
    return;
  }
  process.env.ERL_FLAGS = `${process.env.ERL_FLAGS ?? ''} ${ERL_FLAGS}`.trim();
  console.log(
    `machine: ${os.cpus().length} cores, ${mib(os.totalmem())} MiB, load average ${loadAverage()}; ` +
      `${NODES} nodes, ${WAVES} waves of ${WAVE_SIZE}`,
  );
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'nm-waves-bench-'));
  process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  let server: RunningNodeManagerServer | undefined;
  try {
    let start = performance.now();
    const nodes: ErlProcess[] = [];
    for (let i = 0; i < NODES; i += START_BATCH) {
      const size = Math.min(START_BATCH, NODES - i);
      nodes.push(
        ...(await Promise.all(Array.from({ length: size }, (_, k) => startErl(`${PREFIX}_${i + k}`, COOKIE)))),
      );
    }
    console.log(`started ${NODES} erl nodes in ${fmtMs(since(start))} ms; beams' RSS ${mib(beamRssBytes(nodes))} MiB`);

    server = await startNodeManagerServer(
      { port: 0, dataDir, nodeDownAlarmAfterMs: 0 },
      { env: { TRIAD_LOG_LEVEL: 'silent', TRIAD_ADMIN_PASSWORD: PASSWORD, TRIAD_SCRYPT_COST: '16' } },
    );
    const running = server;
    const baseline = await memoryAfterGc();
    const events = watchEvents(running);
    start = performance.now();
    const ids = new Map<string, string>();
    await Promise.all(
      nodes.map(async (n) => {
        const node = await api<ApiNode>(running, '/api/topo/action/add-node', { name: n.name, cookie: COOKIE });
        ids.set(n.name, node.id);
      }),
    );
    const allUp = await waitFor(PHASE_LIMIT_MS, async () => {
      const listed = await api<ApiNode[]>(running, '/api/topo/node');
      return listed.length === NODES && listed.every((n) => n.state === 'UP');
    });
    if (!allUp) throw new Error(`not all ${NODES} nodes came UP within ${PHASE_LIMIT_MS} ms`);
    const whileAdding = [...events.seen.values()];
    console.log(
      `added ${NODES} nodes, all UP in ${fmtMs(since(start))} ms; meanwhile node_down raised ` +
        `${whileAdding.reduce((n, s) => n + s.raised, 0)}, ` +
        `DOWN/STOPPED events ${whileAdding.reduce((n, s) => n + s.down, 0)}`,
    );
    const added = await memoryAfterGc();
    const memRows: (string | number)[][] = [
      ['before adding', '', mib(baseline.rss), mib(baseline.heapUsed), '', '', ''],
      ['all UP', '', mib(added.rss), mib(added.heapUsed), '', '', ''],
    ];

    const totals: Totals = {
      kills: 0,
      lostRaise: 0,
      extraRaise: 0,
      lostClear: 0,
      extraClear: 0,
      lostDown: 0,
      extraDown: 0,
      lostUp: 0,
      extraUp: 0,
      storeMismatch: 0,
    };
    const allDownMs: number[] = [];
    const allUpMs: number[] = [];
    const allReadyToUpMs: number[] = [];
    let wavesDone = 0;
    for (let wave = 0; wave < WAVES; wave++) {
      if (since(runStart) > RUN_BUDGET_MS - 30_000) {
        console.log(`stopping after ${wave} waves: the run's 3-minute budget`);
        break;
      }
      events.reset();
      const first = (wave * WAVE_SIZE) % NODES;
      const slots = Array.from({ length: WAVE_SIZE }, (_, k) => (first + k) % NODES);
      const victims = slots.map((s) => nodes[s]!);
      const victimIds = new Set(victims.map((v) => ids.get(v.name)!));
      const killedAt = performance.now();
      await Promise.all(victims.map((v) => v.kill()));
      const downSeen = await waitFor(PHASE_LIMIT_MS, async () => {
        if (![...victimIds].every((id) => events.of(id).down > 0 && events.of(id).raised > 0)) return false;
        const listed = await api<ApiNode[]>(running, '/api/topo/node');
        const alarms = await nodeDownAlarms(running);
        return listed.every((n) => victimIds.has(n.id) === (n.state !== 'UP')) && alarms.size === victimIds.size;
      });
      // The alarm list while the wave is down: exactly one active node_down per victim, none else.
      const downAlarms = await nodeDownAlarms(running);
      let mismatch = [...downAlarms].filter(([id, n]) => !victimIds.has(id) || n !== 1).length;
      mismatch += [...victimIds].filter((id) => !downAlarms.has(id)).length;
      const downMs = [...victimIds].map((id) => events.of(id).firstDownAt).filter((t) => t !== undefined);

      const restartAt = performance.now();
      const readyAt = new Map<string, number>();
      const restarted = await Promise.all(victims.map((v) => restartErl(v.name.split('@')[0]!, readyAt)));
      for (const [k, slot] of slots.entries()) nodes[slot] = restarted[k]!;
      const upSeen = await waitFor(PHASE_LIMIT_MS, async () => {
        if (![...victimIds].every((id) => events.of(id).up > 0 && events.of(id).cleared > 0)) return false;
        const listed = await api<ApiNode[]>(running, '/api/topo/node');
        return listed.every((n) => n.state === 'UP') && (await nodeDownAlarms(running)).size === 0;
      });
      // Late duplicates (a second raise or flap) get a moment to show before the wave is counted.
      await sleep(300);
      const upAlarms = await nodeDownAlarms(running);
      mismatch += upAlarms.size;
      const upMs = [...victimIds].map((id) => events.of(id).upAt).filter((t) => t !== undefined);
      // Erl's own boot taken out: from the node printing `ready` (distribution up) to the UP event.
      for (const v of victims) {
        const up = events.of(ids.get(v.name)!).upAt;
        const ready = readyAt.get(v.name);
        if (up !== undefined && ready !== undefined) allReadyToUpMs.push(Math.max(0, up - ready));
      }

      totals.kills += victimIds.size;
      totals.storeMismatch += mismatch;
      for (const id of ids.values()) {
        const s = events.of(id);
        const expected = victimIds.has(id) ? 1 : 0;
        totals.lostRaise += Math.max(0, expected - s.raised);
        totals.extraRaise += Math.max(0, s.raised - expected);
        totals.lostClear += Math.max(0, expected - s.cleared);
        totals.extraClear += Math.max(0, s.cleared - expected);
        totals.lostDown += Math.max(0, expected - s.down);
        totals.extraDown += Math.max(0, s.down - expected);
        totals.lostUp += Math.max(0, expected - s.up);
        totals.extraUp += Math.max(0, s.up - expected);
      }
      const toDown = downMs.map((t) => t - killedAt).sort((a, b) => a - b);
      const toUp = upMs.map((t) => t - restartAt).sort((a, b) => a - b);
      allDownMs.push(...toDown);
      allUpMs.push(...toUp);
      const mem = await memoryAfterGc();
      memRows.push([
        `wave ${wave + 1}${downSeen && upSeen ? '' : ' (timed out)'}`,
        String(victimIds.size),
        mib(mem.rss),
        mib(mem.heapUsed),
        toDown.length ? `${fmtMs(median(toDown))} / ${fmtMs(percentile(toDown, 99))}` : '-',
        toUp.length ? `${fmtMs(median(toUp))} / ${fmtMs(percentile(toUp, 99))}` : '-',
        String(mismatch),
      ]);
      wavesDone++;
    }

    console.log('');
    printTable(
      [
        'after (forced gc)',
        'killed',
        'RSS MiB',
        'heapUsed MiB',
        'kill->DOWN ms p50/p99',
        'restart->UP ms p50/p99',
        'alarm list off',
      ],
      memRows,
    );
    allDownMs.sort((a, b) => a - b);
    allUpMs.sort((a, b) => a - b);
    allReadyToUpMs.sort((a, b) => a - b);
    console.log('');
    console.log(
      `${wavesDone} waves, ${totals.kills} kills. From the event bus: node_down raise lost ${totals.lostRaise} ` +
        `extra ${totals.extraRaise}; clear lost ${totals.lostClear} extra ${totals.extraClear}; ` +
        `DOWN/STOPPED lost ${totals.lostDown} extra ${totals.extraDown}; ` +
        `UP lost ${totals.lostUp} extra ${totals.extraUp}. ` +
        `GET /api/alarm disagreeing entries: ${totals.storeMismatch}.`,
    );
    const raisedInStore = await running.core.alarmStore.countRaisedSince(0);
    console.log(
      `alarm store: ${raisedInStore} alarms raised in all (any id) for ${totals.kills} kills; ` +
        'event bus, raised by id: ' +
        [...events.raisedById].map(([id, n]) => `${id} ${n}`).join(', '),
    );
    if (allDownMs.length > 0 && allUpMs.length > 0) {
      console.log(
        `all waves: kill -> DOWN/STOPPED event p50 ${fmtMs(median(allDownMs))} / ` +
          `p99 ${fmtMs(percentile(allDownMs, 99))} ms; ` +
          `restart (erl spawn) -> UP event p50 ${fmtMs(median(allUpMs))} / p99 ${fmtMs(percentile(allUpMs, 99))} ms`,
      );
    }
    if (allReadyToUpMs.length > 0) {
      console.log(
        `  of which erl ready (distribution up) -> UP event p50 ${fmtMs(median(allReadyToUpMs))} / ` +
          `p99 ${fmtMs(percentile(allReadyToUpMs, 99))} ms (reconnect backoff of the manager)`,
      );
    }
    events.unsubscribe();
    const last = await memoryAfterGc();
    // heapUsed + external: RSS moves with what the allocator returns to the OS, too noisy per node.
    const perNode = (added.heapUsed + added.external - baseline.heapUsed - baseline.external) / NODES;
    const beamPerNode = beamRssBytes(nodes) / NODES;
    console.log(
      `RSS drift from all UP to after the last wave: ${mib(last.rss - added.rss)} MiB, heapUsed ` +
        `${mib(last.heapUsed - added.heapUsed)} MiB`,
    );
    console.log(
      `projection to 200 nodes: this process +${(perNode / 1024).toFixed(0)} KiB heap+external per node -> ` +
        `+${mib(200 * perNode)} MiB; beams ${mib(beamPerNode)} MiB each -> ${mib(200 * beamPerNode)} MiB; ` +
        `10 waves of 20 at this wave's pace (20 a wave, independent of N).`,
    );
    console.log(`load average: ${loadAverage()}; run took ${fmtMs(since(runStart) / 1000)} s`);
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
    killAllErl();
    process.exit(1);
  },
);
