import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@triad/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveErl, uniqueAlive } from '../connections/test-support/erl-node.js';
import { startNodeManagerServer, type RunningNodeManagerServer } from '../server.js';
import { startRegisteringNode, type RegisteringNode } from './test-support/registering-node.js';

const erl = liveErl.available || liveErl.required;
const suite = erl ? it : it.skip;

/** A foreground `epmd -port <port>` of our own, so killing it disturbs no other test. */
async function startEpmd(port: number): Promise<ChildProcess> {
  const child = spawn('epmd', ['-port', String(port)], { stdio: 'ignore' });
  const end = Date.now() + 5_000;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return child;
    if (Date.now() > end) throw new Error(`epmd did not open port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

// The store plays no part here: SQLite only.
describe('self-registration when EPMD restarts', () => {
  const COOKIE = 'epmdrestartcookie';
  const managerName = `${uniqueAlive('wombat')}@127.0.0.1`;
  const nodes: RegisteringNode[] = [];
  let epmdPort = 0;
  let epmd: ChildProcess | undefined;
  let dataDir = '';
  let server: RunningNodeManagerServer | undefined;

  const health = async () =>
    (await (await fetch(`${server!.url}/healthz`)).json()) as { status: string; epmdRegistration: string };
  const until = async (check: () => Promise<boolean>, ms: number, what: string) => {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    if (!erl) return;
    epmdPort = await freePort();
    epmd = await startEpmd(epmdPort);
    dataDir = await mkdtemp(path.join(tmpdir(), 'nm-epmd-restart-'));
    server = await startNodeManagerServer(
      { port: 0, dataDir, nodeName: managerName, nodeCookie: COOKIE, nodeListenAddress: '127.0.0.1', epmdPort },
      { env: { TRIAD_SCRYPT_COST: '16', TRIAD_LOG_LEVEL: 'silent', TRIAD_ADMIN_PASSWORD: 'Admin123' } },
    );
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    await Promise.all(nodes.map((n) => n.kill()));
    if (epmd) await killHard(epmd);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  suite(
    'registers again once a killed EPMD is back, and a node then registers itself with ok',
    async () => {
      const env = { ERL_EPMD_PORT: String(epmdPort) };
      expect(await health()).toMatchObject({ status: 'ok', epmdRegistration: 'registered' });
      const before = startRegisteringNode(uniqueAlive('before'), COOKIE, managerName, 1, env);
      nodes.push(before);
      expect(await before.replies).toBe('ok');

      await killHard(epmd!);
      await until(async () => (await health()).epmdRegistration === 'reregistering', 5_000, 'the loss to show');
      // The API keeps answering: only new nodes cannot find us.
      expect((await health()).status).toBe('ok');
      // Let at least one attempt fail against the missing EPMD, so the backoff path runs.
      await new Promise((r) => setTimeout(r, 1_000));
      expect((await health()).epmdRegistration).toBe('reregistering');

      epmd = await startEpmd(epmdPort);
      const back = Date.now();
      await until(async () => (await health()).epmdRegistration === 'registered', 10_000, 'registering again');
      // The first wait is 0.5 s, doubled per failure: after ~1 s down, the next attempt is due within 2 s.
      expect(Date.now() - back).toBeLessThan(5_000);

      const after = startRegisteringNode(uniqueAlive('after'), COOKIE, managerName, 1, env);
      nodes.push(after);
      expect(await after.replies).toBe('ok');
      const listed = (await (
        await fetch(`${server!.url}/api/topo/node`, {
          headers: { authorization: `Basic ${Buffer.from('admin:Admin123').toString('base64')}` },
        })
      ).json()) as { name: string }[];
      expect(listed.map((n) => n.name)).toEqual(expect.arrayContaining([before.name, after.name]));
    },
    60_000,
  );
});
