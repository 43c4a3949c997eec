import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, type Database } from '@triad/db';
import { sql } from 'kysely';
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
    let admin: Database | undefined;
    const databaseName = `triad_lb_${randomBytes(4).toString('hex')}`;
    const instances: { port: number; process: TriadProcess }[] = [];
    let haproxy: ChildProcess | undefined;
    let haproxyLog = '';
    let balancer = '';

    beforeAll(async () => {
      directory = await mkdtemp(path.join(tmpdir(), 'triad-haproxy-'));
      // A database of its own: the services keep their tables in its public schema.
      admin = openDatabase({ url: postgresUrl, maxConnections: 1 });
      await sql`create database ${sql.id(databaseName)}`.execute(admin.db);
      const databaseUrl = new URL(postgresUrl);
      databaseUrl.pathname = `/${databaseName}`;
      const base = await freePortRun(3);
      const secretKey = randomBytes(32).toString('hex');
      for (const port of [base + 1, base + 2]) {
        const process = startTriad(['serve', 'templates', '--port', String(port), '--no-demo'], {
          DATABASE_URL: databaseUrl.toString(),
          TRIAD_DATA_DIR: path.join(directory, `instance-${port}`),
          TRIAD_SECRET_KEY: secretKey,
          TRIAD_TEMPLATES_WRITE_ACCESS: 'open',
          TRIAD_TEMPLATES_COLLECT: 'false',
          TRIAD_LOG_FORMAT: 'json',
        });
        instances.push({ port, process });
      }
      await Promise.all(
        instances.map((i) =>
          waitFor(i.process, () => i.process.stdout().includes('Press Ctrl+C'), START_BUDGET_MS, `instance ${i.port}`),
        ),
      );
      const config = renderHaproxyConfig(await readFile(EXAMPLE, 'utf8'), {
        frontends: { templates: base },
        servers: { templates: instances.map((i) => i.port) },
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
      await Promise.all(instances.map((i) => stopTriad(i.process)));
      if (admin) {
        await sql`drop database if exists ${sql.id(databaseName)} with (force)`.execute(admin.db);
        await admin.close();
      }
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
  },
);
