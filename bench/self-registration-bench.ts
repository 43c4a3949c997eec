/**
 * Self-registration of real Erlang nodes with one node manager (issue 28, decision 0042).
 *
 *   node --conditions=source --import tsx bench/self-registration-bench.ts [nodes] [steadySeconds]
 *
 * Starts a node manager on SQLite (a temporary directory) as the named node `benchwombat_<pid>@127.0.0.1`,
 * then `nodes` (default 20) `erl -name` nodes at once, each running WombatOAM's published discovery
 * call unchanged and printing how long the call took (the reply comes once the node is stored and
 * connected, so it is the time from the call to UP). Prints the call times (median, max), the time
 * until every node is UP in `GET /api/topo/node`, and this process's CPU during the registrations
 * and per node over `steadySeconds` (default 30) of monitoring afterwards. Asserts nothing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startNodeManagerServer } from '@triad/node-manager-service';

const count = Number(process.argv[2] ?? 20);
const steadySeconds = Number(process.argv[3] ?? 30);
const COOKIE = 'benchcookie';
const manager = `benchwombat_${process.pid}@127.0.0.1`;
const auth = { authorization: `Basic ${Buffer.from('admin:Admin123').toString('base64')}` };

spawnSync('epmd', ['-daemon']);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'selfreg-bench-'));
const server = await startNodeManagerServer(
  { port: 0, dataDir, nodeName: manager, nodeCookie: COOKIE, nodeListenAddress: '127.0.0.1' },
  { env: { TRIAD_SCRYPT_COST: '16', TRIAD_LOG_LEVEL: 'silent', TRIAD_ADMIN_PASSWORD: 'Admin123' } },
);
const children: ChildProcess[] = [];
try {
  const code =
    `T0 = erlang:monotonic_time(microsecond),` +
    ` R = (catch gen_server:call({wo_discover_dynamic_nodes, '${manager}'},` +
    ` {auto_discover_node, node(), erlang:get_cookie()})),` +
    ` io:format("reply ~0p ~b~n", [R, (erlang:monotonic_time(microsecond) - T0) div 1000]).`;
  const cpu0 = process.cpuUsage();
  const started = Date.now();
  const calls = Array.from({ length: count }, (_, i) => {
    const child = spawn(
      'erl',
      ['-name', `sr${i}_${process.pid}@127.0.0.1`, '-setcookie', COOKIE, '-noshell', '-noinput', '-eval', code],
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
  });
  const results = await Promise.all(calls);
  let upAt = 0;
  let last = '';
  while (Date.now() - started < 120_000) {
    const nodes = (await (await fetch(`${server.url}/api/topo/node`, { headers: auth })).json()) as {
      name: string;
      state: string;
    }[];
    last = nodes.map((n) => `${n.name}=${n.state}`).join(',');
    if (nodes.length === count && nodes.every((n) => n.state === 'UP')) {
      upAt = Date.now();
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const cpuRegistration = process.cpuUsage(cpu0);
  const times = results.map((r) => r.ms).sort((a, b) => a - b);
  const ok = results.filter((r) => r.reply === 'ok').length;
  console.log(
    `${count} nodes, ${ok} replied ok; call to reply (= UP): median ${times[count >> 1]} ms, max ${times.at(-1)} ms`,
  );
  console.log(
    `all UP ${upAt ? `${upAt - started} ms after the nodes were started (erl boot included)` : `never: ${last}`}`,
  );
  console.log(
    'CPU of this process during the registrations:' +
      ` ${((cpuRegistration.user + cpuRegistration.system) / 1000).toFixed(0)} ms`,
  );
  const cpu1 = process.cpuUsage();
  await new Promise((r) => setTimeout(r, steadySeconds * 1000));
  const steady = process.cpuUsage(cpu1);
  const share = (steady.user + steady.system) / 1e6 / steadySeconds;
  console.log(
    `steady monitoring over ${steadySeconds} s: ${(share * 100).toFixed(2)} % of one core,` +
      ` ${((share * 100) / count).toFixed(3)} % per node`,
  );
} finally {
  await server.close();
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
}
