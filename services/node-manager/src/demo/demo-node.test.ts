import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupNodePort } from '../connections/epmd-client.js';
import { liveErl, shortHost, uniqueAlive } from '../connections/test-support/erl-node.js';
import { startNodeManagerServer, type RunningNodeManagerServer } from '../server.js';
import { readdirSync, readFileSync } from 'node:fs';
import {
  bootedWithin,
  DEMO_ALARM_ID,
  demoNodeAlive,
  demoNodeHost,
  demoNodeLaunch,
  READY_LINE,
  startDemo,
} from './demo-node.js';
import { pollUntil } from '../test-support/poll-until.js';

/**
 * Budgets for a busy 2-core machine running the whole suite (load average near 20): an Erlang boot
 * with SASL has taken over 15 s there, once 60 s. Every wait polls for its real condition (the
 * node's ready line, the node UP in the API, the alarm listed) and ends as soon as it holds.
 */
const BOOT_BUDGET_MS = 120_000;
const WAIT_BUDGET_MS = 60_000;
const STOP_GRACE_MS = 20_000;
const TEST_BUDGET_MS = BOOT_BUDGET_MS + 2 * WAIT_BUDGET_MS + STOP_GRACE_MS;

describe('demoNodeAlive', () => {
  it('names one demo node per installation: stable per store, different across stores, a valid alive part', () => {
    const a = demoNodeAlive('/srv/triad-a/data');
    expect(a).toMatch(/^triad_demo_[0-9a-f]{8}$/);
    expect(demoNodeAlive('/srv/triad-a/data')).toBe(a);
    expect(demoNodeAlive('/srv/triad-b/data')).not.toBe(a);
    expect(demoNodeAlive('postgres://db/triad')).not.toBe(a);
  });
});

describe('demoNodeLaunch', () => {
  it('binds distribution and a new epmd to loopback and leaves the cookie off the command line', () => {
    const where = { host: 'box', longName: false, address: '127.0.1.1' };
    const launch = demoNodeLaunch({ alive: 'triad_demo_x', where, home: '/tmp/h', env: { PATH: '/bin' } });
    expect(launch.args).toEqual(expect.arrayContaining(['-sname', 'triad_demo_x']));
    expect(launch.args.join(' ')).toContain('-kernel inet_dist_use_interface {127,0,1,1}');
    expect(launch.args).not.toContain('-setcookie');
    expect(launch.env).toMatchObject({ HOME: '/tmp/h', ERL_EPMD_ADDRESS: '127.0.1.1', PATH: '/bin' });
    const long = demoNodeLaunch({
      alive: 'a',
      where: { host: '127.0.0.1', longName: true, address: '127.0.0.1' },
      home: '/h',
      env: {},
    });
    expect(long.args).toEqual(expect.arrayContaining(['-name', 'a@127.0.0.1']));
  });

  it('names the node after a host that resolves to loopback, else after 127.0.0.1', async () => {
    expect(await demoNodeHost('localhost')).toMatchObject({ host: 'localhost', longName: false });
    expect(await demoNodeHost('no-such-host.invalid')).toEqual({
      host: '127.0.0.1',
      longName: true,
      address: '127.0.0.1',
    });
  });
});

/** The command lines of every process this user may read. */
function commandLines(): string[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        return [readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ')];
      } catch {
        return [];
      }
    });
}

/** Local addresses (IPv4 hex `0100007F` style, IPv6 hex) listening on `port`, from /proc/net/tcp{,6}. */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) =>
    readFileSync(file, 'latin1')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((cols) => cols[3] === '0A' && cols[1]?.endsWith(`:${hexPort}`))
      .map((cols) => cols[1]!.split(':')[0]!),
  );
}

describe('bootedWithin', () => {
  it('sees the ready line when a long report follows it in the same chunk', async () => {
    // One write: the ready line, then 500 more characters (the SASL alarm's INFO REPORT is ~200).
    const child = spawn('sh', ['-c', `printf '%s\\n%0500d\\n' '${READY_LINE}' 0; sleep 30`]);
    try {
      expect(await bootedWithin(child, 10_000)).toBe('ready');
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('reports an exit before the ready line with the end of standard error', async () => {
    const child = spawn('sh', ['-c', "echo 'no epmd here' >&2; exit 3"]);
    expect(await bootedWithin(child, 10_000)).toBe('exited (code 3) before it was ready; it said: no epmd here');
  });
});

const suite = liveErl.available || liveErl.required ? describe : describe.skip;
const title =
  liveErl.available || liveErl.required
    ? 'the demo Erlang node'
    : 'the demo Erlang node (skipped: install erlang-base)';

suite(title, () => {
  const auth = { authorization: `Basic ${Buffer.from('admin:Admin123').toString('base64')}` };
  let dataDir = '';
  let server: RunningNodeManagerServer;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nm-demo-'));
    server = await startNodeManagerServer(
      { port: 0, dataDir, alarmPollMs: 100, demo: false },
      { env: { TRIAD_SCRYPT_COST: '16', TRIAD_LOG_LEVEL: 'silent', TRIAD_ADMIN_PASSWORD: 'Admin123' } },
    );
  }, WAIT_BUDGET_MS);
  afterAll(async () => {
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const getJson = async <T>(url: string) => (await (await fetch(`${server.url}${url}`, { headers: auth })).json()) as T;

  it(
    'starts a real node that comes UP with its SASL alarm listed, and stops it with the service side',
    async () => {
      const alive = uniqueAlive('demo');
      const timing = { bootTimeoutMs: BOOT_BUDGET_MS, stopGraceMs: STOP_GRACE_MS };
      const demo = await startDemo(server.core, { url: server.url, alive, ...timing });
      const where = await demoNodeHost(shortHost());
      const name = `${alive}@${where.host}`;
      expect(demo.note).toContain(`${name} started`);
      // The cookie is on no command line; the distribution port listens on loopback only.
      const cookie = (await server.core.topologyStore.findLiveNodeByName(name))?.cookie;
      expect(cookie).toMatch(/^[0-9a-f]{24}$/);
      expect(commandLines().filter((line) => line.includes(cookie!))).toEqual([]);
      const port = await lookupNodePort(where.host, alive, { timeoutMs: 5000 });
      expect(port.kind).toBe('port');
      const bound = listeningAddresses(port.kind === 'port' ? port.port : 0);
      expect(bound.length).toBeGreaterThan(0);
      // 127.x.y.z in /proc's little-endian hex ends with 7F; 0.0.0.0 would be 00000000.
      for (const address of bound) expect(address).toMatch(/^[0-9A-F]{6}7F$/);
      const node = await pollUntil(
        async () =>
          (await getJson<{ name: string; state: string; id: string }[]>('/api/topo/node')).find(
            (n) => n.name === name && n.state === 'UP',
          ),
        WAIT_BUDGET_MS,
        'the demo node UP',
      );
      const alarm = await pollUntil(
        async () =>
          (await getJson<{ alarms: { alarmId: string; src: { nodeId: string } }[] }>('/api/alarm')).alarms.find(
            (a) => a.alarmId === DEMO_ALARM_ID,
          ),
        WAIT_BUDGET_MS,
        'the demo alarm',
      );
      expect(alarm.src.nodeId).toBe(node.id);

      // A second start with the node stored and running reuses it instead of starting another.
      const again = await startDemo(server.core, { url: server.url, alive, ...timing });
      expect(again.note).toContain('already running');
      expect((await getJson<{ name: string }[]>('/api/topo/node')).filter((n) => n.name === name)).toHaveLength(1);

      expect(await again.stop()).toBe('none'); // it launched nothing
      expect(await demo.stop()).toBe('halted'); // end of input, not the kill fallback
      expect((await lookupNodePort(where.host, alive, { timeoutMs: 1000 })).kind).toBe('notRegistered');
    },
    TEST_BUDGET_MS,
  );

  it(
    'starts nothing when other nodes are stored',
    async () => {
      await fetch(`${server.url}/api/topo/action/add-node`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'other@nowhere.invalid', cookie: 'c' }),
      });
      const demo = await startDemo(server.core, { url: server.url, alive: uniqueAlive('demo') });
      expect(demo.note).toContain('already has nodes');
    },
    WAIT_BUDGET_MS,
  );
});
