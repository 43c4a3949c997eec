import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('reports an added node UP, DOWN or STOPPED once killed, and resumes monitoring after a restart', async () => {
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
        async () => ['DOWN', 'STOPPED'].includes((await stateOf(second.url, auth, node.name)) ?? ''),
        5_000,
        'the killed node to leave UP',
      );
    } finally {
      await second.close();
    }
  }, 40_000);
});
