import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupNodePort } from '../connections/epmd-client.js';
import { liveErl, shortHost, uniqueAlive } from '../connections/test-support/erl-node.js';
import { startNodeManagerServer, type RunningNodeManagerServer } from '../server.js';
import { DEMO_ALARM_ID, startDemo } from './demo-node.js';
import { pollUntil } from '../test-support/poll-until.js';

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
  }, 20_000);
  afterAll(async () => {
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const getJson = async <T>(url: string) => (await (await fetch(`${server.url}${url}`, { headers: auth })).json()) as T;

  it('starts a real node that comes UP with its SASL alarm listed, and stops it with the service side', async () => {
    const alive = uniqueAlive('demo');
    const demo = await startDemo(server.core, { url: server.url, alive });
    const name = `${alive}@${shortHost()}`;
    expect(demo.note).toContain(`${name} started`);
    const node = await pollUntil(
      async () =>
        (await getJson<{ name: string; state: string; id: string }[]>('/api/topo/node')).find(
          (n) => n.name === name && n.state === 'UP',
        ),
      15_000,
      'the demo node UP',
    );
    const alarm = await pollUntil(
      async () =>
        (await getJson<{ alarms: { alarmId: string; src: { nodeId: string } }[] }>('/api/alarm')).alarms.find(
          (a) => a.alarmId === DEMO_ALARM_ID,
        ),
      15_000,
      'the demo alarm',
    );
    expect(alarm.src.nodeId).toBe(node.id);

    // A second start with the node stored and running reuses it instead of starting another.
    const again = await startDemo(server.core, { url: server.url, alive });
    expect(again.note).toContain('already running');
    expect((await getJson<{ name: string }[]>('/api/topo/node')).filter((n) => n.name === name)).toHaveLength(1);

    expect(await again.stop()).toBe('none'); // it launched nothing
    expect(await demo.stop()).toBe('halted'); // end of input, not the kill fallback
    expect((await lookupNodePort(shortHost(), alive, { timeoutMs: 1000 })).kind).toBe('notRegistered');
  }, 40_000);

  it('starts nothing when other nodes are stored', async () => {
    await fetch(`${server.url}/api/topo/action/add-node`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'other@nowhere.invalid', cookie: 'c' }),
    });
    const demo = await startDemo(server.core, { url: server.url, alive: uniqueAlive('demo') });
    expect(demo.note).toContain('already has nodes');
  }, 20_000);
});
