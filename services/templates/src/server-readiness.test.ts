import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSourceProcess, waitForProcess, type SourceProcess } from '@triad/service-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ADMIN_TOKEN = 'readiness-admin-token-0123456789';
/** A write no route answers: 404 when the token is accepted, 401 when it is refused. */
const PROBE = '/templates/readiness-probe/1.0.0/x';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = address !== null && typeof address === 'object' ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function statusOf(url: string, init?: RequestInit): Promise<number | undefined> {
  try {
    return (await fetch(url, init)).status;
  } catch {
    return undefined; // not listening yet
  }
}

describe('template service readiness (issue 23: ready means ready)', () => {
  let directory: string | undefined;
  let service: SourceProcess | undefined;

  afterAll(async () => {
    await service?.stop();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('accepts the admin token and the demo write token on the request right after the first /healthz 200', async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'triad-templates-ready-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    service = startSourceProcess({
      cwd: ROOT,
      args: ['apps/cli/src/bin.ts', 'serve', 'templates', '--port', String(port), '--data-dir', directory],
      env: { TRIAD_TEMPLATES_ADMIN_TOKEN: ADMIN_TOKEN, TRIAD_LOG_LEVEL: 'warn', TRIAD_DEMO: 'true' },
    });
    const started = service;
    // Poll as a load balancer would, as fast as replies come, and use the token the moment it says ready.
    const deadline = Date.now() + 120_000;
    let adminStatus: number | undefined;
    while (adminStatus === undefined) {
      if (started.child.exitCode !== null || Date.now() > deadline)
        throw new Error(`the template service did not become healthy:\n${started.stderr()}`);
      if ((await statusOf(`${base}/healthz`)) !== 200) continue;
      adminStatus = await statusOf(`${base}${PROBE}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
    }
    expect(adminStatus).toBe(404);
    // The demo write token, printed once the service runs, works as well.
    await waitForProcess(started, () => /write token \(demo/.test(started.stdout()), 30_000, 'no demo token printed');
    const demoToken = /write token \(demo[^:]*: (\S+)/.exec(started.stdout())?.[1];
    expect(demoToken).toMatch(/^tdt_/);
    expect(
      await statusOf(`${base}${PROBE}`, { method: 'PUT', headers: { authorization: `Bearer ${demoToken}` } }),
    ).toBe(404);
    // A cold start from source under a loaded CI machine takes 20-30 s; the 120 s deadline above governs.
  }, 150_000);
});
