/**
 * A fleet of real Erlang nodes that register themselves with one node manager, with a webhook
 * notification channel on (issue 28, decisions 0042 and 0043).
 *
 *   npm run bench -- node-fleet
 *   BENCH_NODES=200 BENCH_BATCH=20 BENCH_KILL=5 BENCH_STEADY_SECONDS=30 npm run bench -- node-fleet
 *
 * Starts a node manager on SQLite (a temporary directory) as the named node `benchwombat_<pid>@127.0.0.1`,
 * with `TRIAD_NODE_DOWN_ALARM_AFTER_MS` 5000 and one webhook channel to a local HTTP receiver that the
 * admin subscribes to. Then it starts `BENCH_NODES` (default 200) `erl -name` nodes in batches of
 * `BENCH_BATCH`, each running WombatOAM's published discovery call unchanged. Prints:
 * - the call times (the reply comes once the node is stored and connected, so call to reply = UP) and
 *   the time until every node is UP in `GET /api/topo/node`;
 * - the node manager's CPU during the registrations, and per node over `BENCH_STEADY_SECONDS` of
 *   monitoring afterwards, beside the CPU the nodes themselves used in that time;
 * - after `kill -9` of `BENCH_KILL` nodes: the time until the API says DOWN, until `node_down` is in
 *   `GET /api/alarm`, and until its webhook arrived.
 * Asserts nothing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startNodeManagerServer } from '@triad/node-manager-service';
import { cpuSeconds, median } from './bench-utils.js';

const count = Number(process.env.BENCH_NODES ?? process.argv[2] ?? 200);
const batch = Number(process.env.BENCH_BATCH ?? 20);
const steadySeconds = Number(process.env.BENCH_STEADY_SECONDS ?? process.argv[3] ?? 30);
const killCount = Math.min(count, Number(process.env.BENCH_KILL ?? 5));
const DOWN_ALARM_AFTER_MS = 5000;
const COOKIE = 'benchcookie';
const manager = `benchwombat_${process.pid}@127.0.0.1`;
const auth = { authorization: `Basic ${Buffer.from('admin:Admin123').toString('base64')}` };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const medianOf = (xs: readonly number[]) => (xs.length === 0 ? NaN : median([...xs].sort((a, b) => a - b)));

/** CPU time (user + system) of a process in ms, from /proc; 0 once it is gone. */
function cpuMsOf(pid: number | undefined): number {
  try {
    return pid === undefined ? 0 : cpuSeconds(pid) * 1000;
  } catch {
    return 0;
  }
}

// The webhook receiver: when each node's node_down notification arrived.
const webhookAt = new Map<string, number>();
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    const event = JSON.parse(body) as { type: string; alarm: { alarmId: string; nodeName: string } };
    if (event.type === 'alarm.raised' && event.alarm.alarmId === 'node_down')
      webhookAt.set(event.alarm.nodeName, Date.now());
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));

spawnSync('epmd', ['-daemon']);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'node-fleet-bench-'));
const server = await startNodeManagerServer(
  { port: 0, dataDir, nodeName: manager, nodeCookie: COOKIE, nodeListenAddress: '127.0.0.1' },
  {
    env: {
      TRIAD_SCRYPT_COST: '16',
      TRIAD_LOG_LEVEL: 'silent',
      TRIAD_ADMIN_PASSWORD: 'Admin123',
      TRIAD_NOTIFY_ALLOW: '127.0.0.1',
      TRIAD_NODE_DOWN_ALARM_AFTER_MS: String(DOWN_ALARM_AFTER_MS),
    },
  },
);
const api = async <T>(url: string, body?: unknown): Promise<T> => {
  const response = await fetch(`${server.url}${url}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};
const nodesNow = () => api<{ name: string; state: string }[]>('/api/topo/node');

const children: ChildProcess[] = [];
try {
  const { port } = receiver.address() as AddressInfo;
  const channel = await api<{ id: string }>('/api/notifications/channels', {
    type: 'webhook',
    name: 'fleet bench',
    url: `http://127.0.0.1:${port}/hook`,
    secret: 'fleet-bench-secret-0123456789',
  });
  await api('/api/notifications/subscriptions', { channelId: channel.id });

  const code =
    `T0 = erlang:monotonic_time(microsecond),` +
    ` R = (catch gen_server:call({wo_discover_dynamic_nodes, '${manager}'},` +
    ` {auto_discover_node, node(), erlang:get_cookie()})),` +
    ` io:format("reply ~0p ~b~n", [R, (erlang:monotonic_time(microsecond) - T0) div 1000]).`;
  const startNode = (i: number) => {
    const child = spawn(
      'erl',
      [
        ...['-name', `fleet${i}_${process.pid}@127.0.0.1`, '-setcookie', COOKIE],
        ...['+S', '1', '+A', '1', '+sbwt', 'none', '-noshell', '-noinput', '-eval', code],
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    children.push(child);
    return new Promise<{ reply: string; ms: number }>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /reply (\S+) (\d+)\n/.exec(out);
        if (m) resolve({ reply: m[1]!, ms: Number(m[2]) });
      });
      child.once('exit', () => reject(new Error(`node ${i} exited: ${out}`)));
    });
  };

  const cpu0 = cpuMsOf(process.pid);
  const started = Date.now();
  const results: { reply: string; ms: number }[] = [];
  for (let first = 0; first < count; first += batch) {
    const size = Math.min(batch, count - first);
    results.push(...(await Promise.all(Array.from({ length: size }, (_, k) => startNode(first + k)))));
    process.stdout.write(`\r${results.length}/${count} nodes replied`);
  }
  process.stdout.write('\n');
  let upAt = 0;
  while (Date.now() - started < 600_000) {
    const nodes = await nodesNow();
    if (nodes.length === count && nodes.every((n) => n.state === 'UP')) {
      upAt = Date.now();
      break;
    }
    await sleep(100);
  }
  const cpuRegistration = cpuMsOf(process.pid) - cpu0;
  const times = results.map((r) => r.ms);
  const ok = results.filter((r) => r.reply === 'ok').length;
  console.log(
    `${count} nodes in batches of ${batch}, ${ok} replied ok; call to reply (= UP):` +
      ` median ${medianOf(times)} ms, max ${Math.max(...times)} ms`,
  );
  console.log(
    `all UP ${upAt ? `${((upAt - started) / 1000).toFixed(1)} s after the first node was started` : 'never'}`,
  );
  console.log(
    `node manager CPU during the registrations: ${cpuRegistration.toFixed(0)} ms` +
      ` (${(cpuRegistration / count).toFixed(1)} ms a node)`,
  );

  const nodeCpu0 = children.reduce((sum, c) => sum + cpuMsOf(c.pid), 0);
  const cpu1 = cpuMsOf(process.pid);
  await sleep(steadySeconds * 1000);
  const steadyMs = cpuMsOf(process.pid) - cpu1;
  const nodesMs = children.reduce((sum, c) => sum + cpuMsOf(c.pid), 0) - nodeCpu0;
  const share = steadyMs / 1000 / steadySeconds;
  console.log(
    `steady monitoring over ${steadySeconds} s: node manager ${(share * 100).toFixed(1)} % of one core,` +
      ` ${((share * 100) / count).toFixed(3)} %` +
      ` (${((steadyMs / count / steadySeconds) * 60).toFixed(0)} ms a minute) per node;` +
      ` the ${count} nodes themselves ${((nodesMs / 1000 / steadySeconds) * 100).toFixed(1)} % of one core`,
  );

  // Detection: kill -9 a few nodes spread over the fleet.
  const victims = Array.from({ length: killCount }, (_, k) => Math.floor((k * count) / killCount));
  const names = victims.map((i) => `fleet${i}_${process.pid}@127.0.0.1`);
  const killedAt = Date.now();
  for (const i of victims) children[i]!.kill('SIGKILL');
  const downAt = new Map<string, number>();
  const alarmAt = new Map<string, number>();
  while (Date.now() - killedAt < DOWN_ALARM_AFTER_MS + 60_000) {
    const now = Date.now();
    for (const n of await nodesNow())
      if (names.includes(n.name) && n.state !== 'UP' && !downAt.has(n.name)) downAt.set(n.name, now);
    const { alarms } = await api<{ alarms: { alarmId: string; src: { nodeName: string } }[] }>('/api/alarm');
    for (const a of alarms)
      if (a.alarmId === 'node_down' && names.includes(a.src.nodeName) && !alarmAt.has(a.src.nodeName))
        alarmAt.set(a.src.nodeName, now);
    if (names.every((n) => webhookAt.has(n) && alarmAt.has(n) && downAt.has(n))) break;
    await sleep(50);
  }
  const after = (m: Map<string, number>) =>
    m.size === 0 ? 'never' : `median ${medianOf([...m.values()].map((t) => t - killedAt))} ms (${m.size}/${killCount})`;
  console.log(`kill -9 of ${killCount} nodes, node_down alarm after ${DOWN_ALARM_AFTER_MS} ms out of UP:`);
  console.log(
    `  not UP in the API: ${after(downAt)}; node_down in /api/alarm: ${after(alarmAt)};` +
      ` webhook received: ${after(webhookAt)}`,
  );
  const rss = readFileSync(`/proc/${process.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1];
  console.log(`node manager RSS ${Math.round(Number(rss) / 1024)} MB with ${count} nodes`);
} finally {
  await server.close();
  for (const child of children) child.kill('SIGKILL');
  receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
}
