import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createScratchDatabase, type ScratchDatabase } from '@triad/db/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePortRun } from '../apps/cli/src/test-support/free-ports.js';
import { startTriad, stopTriad, waitFor, type TriadProcess } from '../apps/cli/src/test-support/serve-process.js';
import { sampleTemplate } from '../services/templates/src/test-support/sample-templates.js';
import { describeWithDeployTools } from './describe-with-deploy-tools.js';
import { renderHaproxyConfig } from './render-haproxy-config.js';

const EXAMPLE = fileURLToPath(new URL('haproxy/triad.cfg', import.meta.url));
/** Two instances started from the sources (tsx compiles on the fly) on a busy 2-core machine. */
const START_BUDGET_MS = 120_000;

describeWithDeployTools(
  'deploy/haproxy/triad.cfg in front of two template service instances',
  { programs: ['haproxy'], postgres: true },
  (postgresUrl) => {
    let directory = '';
    let scratch: ScratchDatabase | undefined;
    const instances: { port: number; process: TriadProcess }[] = [];
    let haproxy: ChildProcess | undefined;
    let haproxyLog = '';
    let balancer = '';
    let nodeManagerBalancer = 0;
    let nodeManager: TriadProcess | undefined;

    beforeAll(async () => {
      directory = await mkdtemp(path.join(tmpdir(), 'triad-haproxy-'));
      // A database of its own: the services keep their tables in its public schema.
      scratch = await createScratchDatabase(postgresUrl, 'triad_lb');
      const databaseUrl = scratch.url;
      // Ports: the templates frontend, two template instances, the node manager frontend and
      // instance, and one where nothing listens.
      const base = await freePortRun(6);
      const secretKey = randomBytes(32).toString('hex');
      nodeManagerBalancer = base + 3;
      nodeManager = startTriad(['serve', 'node-manager', '--port', String(base + 4), '--no-demo'], {
        DATABASE_URL: databaseUrl,
        TRIAD_DATA_DIR: path.join(directory, 'node-manager'),
        TRIAD_SECRET_KEY: secretKey,
        TRIAD_ADMIN_PASSWORD: 'Admin123',
        TRIAD_SCRYPT_COST: '16',
        TRIAD_WS_AUTH_TIMEOUT_MS: '1000',
        TRIAD_LOG_FORMAT: 'json',
      });
      for (const port of [base + 1, base + 2]) {
        const process = startTriad(['serve', 'templates', '--port', String(port), '--no-demo'], {
          DATABASE_URL: databaseUrl,
          TRIAD_DATA_DIR: path.join(directory, `instance-${port}`),
          TRIAD_SECRET_KEY: secretKey,
          TRIAD_TEMPLATES_WRITE_ACCESS: 'open',
          TRIAD_TEMPLATES_COLLECT: 'false',
          TRIAD_LOG_FORMAT: 'json',
        });
        instances.push({ port, process });
      }
      await Promise.all(
        [...instances, { port: base + 4, process: nodeManager }].map((i) =>
          waitFor(i.process, () => i.process.stdout().includes('Press Ctrl+C'), START_BUDGET_MS, `instance ${i.port}`),
        ),
      );
      const config = renderHaproxyConfig(await readFile(EXAMPLE, 'utf8'), {
        frontends: { templates: base, node_manager: nodeManagerBalancer },
        servers: {
          templates: instances.map((i) => i.port),
          // Only the WebSocket backend reaches the instance, so an upgrade that answers was routed there.
          node_manager: [base + 5],
          node_manager_live: [base + 4],
        },
      });
      const configFile = path.join(directory, 'triad.cfg');
      await writeFile(configFile, config);
      haproxy = spawn('haproxy', ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
      haproxy.stdout?.on('data', (chunk: Buffer) => (haproxyLog += chunk.toString('utf8')));
      haproxy.stderr?.on('data', (chunk: Buffer) => (haproxyLog += chunk.toString('utf8')));
      balancer = `http://127.0.0.1:${base}`;
      const deadline = Date.now() + 30_000;
      for (;;) {
        if (haproxy.exitCode !== null) throw new Error(`haproxy ended:\n${haproxyLog}`);
        const status = await fetch(`${balancer}/healthz`).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 200) break;
        if (Date.now() > deadline) throw new Error(`haproxy does not answer on ${balancer}:\n${haproxyLog}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }, START_BUDGET_MS + 60_000);

    afterAll(async () => {
      haproxy?.kill('SIGKILL');
      await Promise.all(
        [...instances, ...(nodeManager ? [{ process: nodeManager }] : [])].map((i) => stopTriad(i.process)),
      );
      await scratch?.drop();
      if (directory) await rm(directory, { recursive: true, force: true });
    });

    /** How many requests for `url` an instance logged (Fastify's "incoming request" lines). */
    const served = (instance: { process: TriadProcess }, url: string) =>
      instance.process
        .stderr()
        .split('\n')
        .filter((line) => line.includes('"incoming request"') && line.includes(`"url":"${url}"`)).length;

    it('spreads requests over both instances, which share what was written through either', async () => {
      const template = sampleTemplate({ templateId: 'Balanced Switch' });
      const created = await fetch(`${balancer}/templates`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(template),
      });
      expect(created.status).toBe(201);
      const url = `/templates/${encodeURIComponent('Balanced Switch')}`;
      for (let i = 0; i < 6; i++) {
        const reply = await fetch(`${balancer}${url}`);
        expect(reply.status).toBe(200);
        expect(await reply.text()).toContain('1.0.0');
      }
      expect(instances.map((i) => served(i, url))).toEqual([3, 3]);
      for (const instance of instances) {
        expect((await fetch(`http://127.0.0.1:${instance.port}${url}`)).status).toBe(200);
      }
    });

    it('keeps answering after one instance is killed with SIGKILL', async () => {
      const [victim, survivor] = instances;
      if (!victim || !survivor) throw new Error('two instances expected');
      victim.process.child.kill('SIGKILL');
      expect(await victim.process.exited).toBe('SIGKILL');
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await fetch(`${balancer}/templates`)).status);
      expect(statuses).toEqual(Array.from({ length: 10 }, () => 200));
      expect(served(survivor, '/templates')).toBeGreaterThanOrEqual(10);
    });

    it("routes the node manager's WebSocket upgrade to its own backend, sticky, carrying frames", async () => {
      expect((await fetch(`http://127.0.0.1:${nodeManagerBalancer}/api/tags`)).status).toBe(503);
      const { status, cookie, socket, head } = await upgrade(nodeManagerBalancer, '/api/core/ws');
      try {
        expect(status).toBe(101);
        expect(cookie).toMatch(/^TRIAD_NODE_MANAGER=nm1;/);
        // No auth frame: after TRIAD_WS_AUTH_TIMEOUT_MS the node manager closes with 4401.
        const frame = head.length >= 4 ? head : Buffer.concat([head, await nextChunk(socket)]);
        expect(frame[0]).toBe(0x88); // FIN + close
        expect(frame.readUInt16BE(2)).toBe(4401);
      } finally {
        socket.destroy();
      }
    });
  },
);

/** Sends a WebSocket upgrade request for `path` to 127.0.0.1:`port`; the reply's status and socket. */
function upgrade(
  port: number,
  path: string,
): Promise<{ status: number; cookie: string | undefined; socket: Socket; head: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({
      host: '127.0.0.1',
      port,
      path,
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': randomBytes(16).toString('base64'),
      },
    });
    request.once('upgrade', (response, socket, head) =>
      resolve({ status: response.statusCode ?? 0, cookie: response.headers['set-cookie']?.[0], socket, head }),
    );
    request.once('response', (response) => reject(new Error(`no upgrade: HTTP ${response.statusCode}`)));
    request.once('error', reject);
    request.end();
  });
}

function nextChunk(socket: Socket): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    socket.once('data', resolve);
    socket.once('error', reject);
    socket.once('end', () => reject(new Error('the socket ended without a frame')));
  });
}

describeWithDeployTools('deploy/haproxy/triad.cfg as shipped', { programs: ['haproxy'] }, () => {
  it('passes haproxy -c unchanged (global section included)', () => {
    const checked = spawnSync('haproxy', ['-c', '-f', EXAMPLE], { encoding: 'utf8' });
    expect({ status: checked.status, output: `${checked.stdout}${checked.stderr}`.trim() }).toEqual({
      status: 0,
      output: 'Configuration file is valid',
    });
  });
});
