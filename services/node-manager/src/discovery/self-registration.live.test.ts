import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, planPostgresSuite, type ScratchDatabase } from '@triad/db/testing';
import { liveErl, uniqueAlive } from '../connections/test-support/erl-node.js';
import { startNodeManagerServer, type RunningNodeManagerServer } from '../server.js';
import { runErl } from './test-support/run-erl.js';
import { startRegisteringNode, type RegisteringNode } from './test-support/registering-node.js';

const erl = liveErl.available || liveErl.required;
const pg = planPostgresSuite(process.env);
const stores = [
  { store: 'SQLite', run: erl },
  { store: 'PostgreSQL', run: erl && pg.kind !== 'skip' },
] as const;
const AUTH = { authorization: `Basic ${Buffer.from('admin:Admin123').toString('base64')}` };

interface ApiNode {
  id: string;
  name: string;
  state: string;
  node_family_id: string;
}

describe.each(stores)('nodes that register themselves ($store)', ({ store, run }) => {
  const suite = run ? it : it.skip;
  const COOKIE = 'selfregcookie';
  const managerName = `${uniqueAlive('wombat')}@127.0.0.1`;
  const nodes: RegisteringNode[] = [];
  let dataDir = '';
  let scratch: ScratchDatabase | undefined;
  let server: RunningNodeManagerServer | undefined;

  const listNodes = async (): Promise<ApiNode[]> =>
    (await (await fetch(`${server!.url}/api/topo/node`, { headers: AUTH })).json()) as ApiNode[];
  const until = async (check: () => Promise<boolean>, ms: number, what: string) => {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    if (!run) return;
    spawnSync('epmd', ['-daemon']);
    dataDir = await mkdtemp(path.join(tmpdir(), 'nm-selfreg-'));
    if (store === 'PostgreSQL') {
      if (pg.kind !== 'run') throw new Error(pg.reason);
      scratch = await createScratchDatabase(pg.url, 'nm_selfreg');
    }
    server = await startNodeManagerServer(
      {
        port: 0,
        dataDir,
        ...(scratch ? { databaseUrl: scratch.url } : {}),
        nodeName: managerName,
        nodeCookie: COOKIE,
        nodeListenAddress: '127.0.0.1',
        discoveryFamily: 'Autoscaled',
      },
      { env: { TRIAD_SCRYPT_COST: '16', TRIAD_LOG_LEVEL: 'silent', TRIAD_ADMIN_PASSWORD: 'Admin123' } },
    );
  }, 30_000);
  afterAll(async () => {
    // The server first, as the other live suites do: closing right after its nodes died can wait
    // for their monitoring to let go.
    await server?.close();
    await Promise.all(nodes.map((n) => n.kill()));
    await scratch?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  suite('adds three nodes running the published call to the configured family; they reach UP', async () => {
    expect(server!.notes.join('\n')).toContain(`Erlang node ${managerName}`);
    const started = Date.now();
    // The second call of each node comes once the first was answered: the node is managed then.
    const three = [0, 1, 2].map(() => startRegisteringNode(uniqueAlive('auto'), COOKIE, managerName, 2));
    nodes.push(...three);
    expect(await Promise.all(three.map((n) => n.replies))).toEqual(['ok ok', 'ok ok', 'ok ok']);
    await until(
      async () => {
        const listed = (await listNodes()).filter((n) => three.some((t) => t.name === n.name));
        return listed.length === 3 && listed.every((n) => n.state === 'UP');
      },
      15_000,
      'the three nodes to be UP',
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    const listed = (await listNodes()).filter((n) => three.some((t) => t.name === n.name));
    expect(listed.map((n) => n.name).sort()).toEqual(three.map((n) => n.name).sort());
    const familyIds = new Set(listed.map((n) => n.node_family_id));
    expect(familyIds.size).toBe(1);
    const family = (await (
      await fetch(`${server!.url}/api/topo/node-family/${[...familyIds][0]!}`, { headers: AUTH })
    ).json()) as { name: string };
    expect(family.name).toBe('Autoscaled');
    // The nodes list us in nodes() (visible); the node manager never manages itself.
    await expect(server!.core.topology.addNode(managerName, COOKIE)).rejects.toMatchObject({
      code: 'NM_ERR_NODE_EXISTS',
    });
    expect((await listNodes()).some((n) => n.name === managerName)).toBe(false);
  });

  suite('answers ok without a duplicate when a restarted node registers again under its name', async () => {
    const first = nodes[0]!;
    const alive = first.name.slice(0, first.name.indexOf('@'));
    await first.kill();
    const again = startRegisteringNode(alive, COOKIE, managerName, 1);
    nodes.push(again);
    expect(await again.replies).toBe('ok');
    const named = (await listNodes()).filter((n) => n.name === again.name);
    expect(named).toHaveLength(1);
    await until(
      async () => (await listNodes()).find((n) => n.name === again.name)?.state === 'UP',
      15_000,
      'the restarted node to be UP again',
    );
  });

  suite('refuses a node that names another node than itself', async () => {
    const alive = uniqueAlive('liar');
    const code =
      `R = gen_server:call({wo_discover_dynamic_nodes, '${managerName}'},` +
      ` {auto_discover_node, 'someone@10.0.0.1', erlang:get_cookie()}), io:format("~p", [R]), halt().`;
    // Not spawnSync: the server answering runs in this process.
    const out = await runErl(alive, COOKIE, code);
    expect(out).toBe('{error,not_the_caller}');
    expect((await listNodes()).some((n) => n.name === 'someone@10.0.0.1')).toBe(false);
  });
});
