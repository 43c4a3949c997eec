import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@triad/service-kit';
import { startNodeManagerServer } from './server.js';
import { liveErl, startErlNode, uniqueAlive, type ErlNode } from './connections/test-support/erl-node.js';

const suite = liveErl.available || liveErl.required ? describe : describe.skip;
const title =
  liveErl.available || liveErl.required
    ? 'node manager with real Erlang nodes'
    : 'node manager with real Erlang nodes (skipped: install erlang-base)';

suite(title, () => {
  let dataDir = '';
  const nodes: ErlNode[] = [];
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nm-erlang-'));
  });
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.kill()));
    await rm(dataDir, { recursive: true, force: true });
  });

  async function stateOf(url: string, auth: Record<string, string>, name: string): Promise<string | undefined> {
    const list = (await (await fetch(`${url}/api/topo/node`, { headers: auth })).json()) as {
      name: string;
      state: string;
    }[];
    return list.find((n) => n.name === name)?.state;
  }
  async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  it('reports a node UP, DOWN once killed (also after a restart), and resumes monitoring on restart', async () => {
    const env = { TRIAD_SCRYPT_COST: '16', TRIAD_LOG_LEVEL: 'silent', TRIAD_ADMIN_PASSWORD: 'Admin123' };
    const auth = { authorization: `Basic ${Buffer.from('admin:Admin123').toString('base64')}` };
    const node = await startErlNode(uniqueAlive('nmsrv'), 'srvcookie');
    nodes.push(node);

    const first = await startNodeManagerServer({ port: 0, dataDir }, { env });
    const added = await fetch(`${first.url}/api/topo/action/add-node`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: node.name, cookie: node.cookie }),
    });
    expect(added.status).toBe(200);
    const reply = (await added.json()) as { id: string; state: string; node_family_id: string };
    expect(reply.state).toBe('UP');
    // Placed in the family of its release: a plain erl's init:script_id() is {"Erlang/OTP", OtpRelease}
    // ({"Erlang/OTP","25"} on OTP 25).
    const family = (await (
      await fetch(`${first.url}/api/topo/node-family/${reply.node_family_id}`, { headers: auth })
    ).json()) as { name: string; nodes: string[] };
    expect(family.name).toMatch(/^Erlang\/OTP \d+$/);
    expect(family.nodes).toEqual([reply.id]);
    await until(async () => (await stateOf(first.url, auth, node.name)) === 'UP', 10_000, 'the node to be UP');
    // On SQLite the one instance owns every node.
    expect(await (await fetch(`${first.url}/healthz`)).json()).toEqual({
      status: 'ok',
      instance: first.core.ownership.instanceId,
      nodesOwned: 1,
      epmdRegistration: 'off',
    });
    await first.close();

    // A new service process picks the stored node up again without being asked.
    const second = await startNodeManagerServer({ port: 0, dataDir }, { env });
    try {
      await until(
        async () => (await stateOf(second.url, auth, node.name)) === 'UP',
        10_000,
        'the node to be UP after a restart',
      );
      await node.kill();
      await until(
        async () => (await stateOf(second.url, auth, node.name)) === 'DOWN',
        5_000,
        'the killed node to be DOWN',
      );
      // Lost without a stop asked for: still DOWN after EPMD has forgotten the node (0038).
      await new Promise((r) => setTimeout(r, 1_500));
      expect(await stateOf(second.url, auth, node.name)).toBe('DOWN');
    } finally {
      await second.close();
    }
    // And after a restart of the service: the stored DOWN says the node was lost, not stopped.
    const third = await startNodeManagerServer({ port: 0, dataDir }, { env });
    try {
      await new Promise((r) => setTimeout(r, 1_000));
      expect(await stateOf(third.url, auth, node.name)).toBe('DOWN');
    } finally {
      await third.close();
    }
  }, 40_000);

  it('after a restart collects only from connected nodes: no warnings, /metrics filled, history kept', async () => {
    const env = { TRIAD_SCRYPT_COST: '16', TRIAD_ADMIN_PASSWORD: 'Admin123' };
    const auth = { authorization: `Basic ${Buffer.from('admin:Admin123').toString('base64')}` };
    const restartDir = await mkdtemp(path.join(tmpdir(), 'nm-restart-'));
    const node = await startErlNode(uniqueAlive('nmrestart'), 'restartcookie');
    nodes.push(node);
    const quiet = { logLevel: 'silent' as const };
    try {
      const first = await startNodeManagerServer(
        { port: 0, dataDir: restartDir, metricsPollMs: 100, ...quiet },
        { env },
      );
      const added = await fetch(`${first.url}/api/topo/action/add-node`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: node.name, cookie: node.cookie }),
      });
      const { id } = (await added.json()) as { id: string };
      const history = async (url: string) =>
        (
          (await (
            await fetch(`${url}/api/metrics/node/${id}?name=erlang_vm_process_count&from=${Date.now() - 3_600_000}`, {
              headers: auth,
            })
          ).json()) as { points?: [number, number][] }
        ).points ?? [];
      await until(async () => (await history(first.url)).length >= 2, 10_000, 'two samples in the history');
      const before = await history(first.url);
      await first.close();

      // Warnings and errors of the restarted service, as JSON lines.
      const lines: string[] = [];
      const logger = createLogger({
        level: 'warn',
        format: 'json',
        destination: { write: (l: string) => void lines.push(l) },
      });
      // A poll interval far longer than the test: whatever /metrics shows came from the first collection.
      const second = await startNodeManagerServer(
        { port: 0, dataDir: restartDir, metricsPollMs: 3_600_000 },
        { env, logger },
      );
      try {
        const label = `erlang_vm_process_count{node="${node.name}"}`;
        await until(
          async () => (await (await fetch(`${second.url}/metrics`, { headers: auth })).text()).includes(label),
          10_000,
          'the first sample after the restart',
        );
        expect(lines).toEqual([]);
        const after = await history(second.url);
        expect(after.slice(0, before.length)).toEqual(before);
        expect(after.length).toBeGreaterThan(before.length);
      } finally {
        await second.close();
      }
    } finally {
      await rm(restartDir, { recursive: true, force: true });
    }
  }, 40_000);
});
