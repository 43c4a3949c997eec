import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@triad/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeManagerServer } from './server.js';

describe('node manager readiness', () => {
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nm-ready-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers /healthz 200 only once the configured admin password signs in', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const auth = { authorization: `Basic ${Buffer.from('admin:Admin123').toString('base64')}` };
    // A costly hash keeps the admin's creation going for a while after the port opens.
    const env = { TRIAD_SCRYPT_COST: '65536', TRIAD_LOG_LEVEL: 'silent', TRIAD_ADMIN_PASSWORD: 'Admin123' };
    const starting = startNodeManagerServer({ port, dataDir }, { env });
    let settled = false;
    const started = starting.finally(() => (settled = true));
    // Probe as a load balancer does: at the first 200, the admin's password must work.
    const probes: number[] = [];
    let signIn: number | undefined;
    while (signIn === undefined) {
      const health = await fetch(`${base}/healthz`).then(
        (reply) => reply.status,
        () => 0,
      );
      probes.push(health);
      if (health === 200) signIn = (await fetch(`${base}/api/users/username`, { headers: auth })).status;
      else if (settled && probes.length > 10_000) break;
    }
    const server = await started;
    try {
      expect(signIn).toBe(200);
      // The probes saw the service up and not ready at least once, or the test proved nothing.
      expect(probes.some((status) => status === 503)).toBe(true);
    } finally {
      await server.close();
    }
  }, 60_000);
});
