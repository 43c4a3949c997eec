import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describePostgresOnly } from '@triad/db/testing';
import { keyFingerprint, SecretKeyMismatchError } from '@triad/service-kit';
import { errorMessage } from '@triad/common';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rotateSecretKey } from './commands/rotate-secret-key.js';
import type { NodeManagerDatabase } from './repositories/node-manager-tables.js';
import { CookieCipher } from './secrets/cookie-cipher.js';
import { openNodeManagerDatabase, startNodeManagerServer } from './server.js';
import { loadNodeManagerConfig } from './config.js';
import { LIVE_ADMIN } from './test-support/live-node-manager.js';
import { NodeManagerCluster } from './test-support/node-manager-cluster.js';

const BASE_ENV = { TRIAD_SCRYPT_COST: '16', TRIAD_LOG_LEVEL: 'silent', TRIAD_ADMIN_PASSWORD: 'Admin123' };
const newKey = () => randomBytes(32).toString('hex');
const fingerprintOf = (hexKey: string) =>
  keyFingerprint(new CookieCipher([Buffer.from(hexKey, 'hex')]).checkValues()[0] ?? '');

describe('a node manager whose secret key is not the database’s', () => {
  let dataDir = '';
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nm-key-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });
  const start = (secretKey?: string) =>
    startNodeManagerServer(
      { port: 0, dataDir },
      { env: { ...BASE_ENV, ...(secretKey ? { TRIAD_SECRET_KEY: secretKey } : {}) } },
    );

  it('refuses to start, naming the expected key fingerprint and the rotation, even with no cookie stored', async () => {
    const first = newKey();
    await (await start(first)).close();
    const other = newKey();
    const error = await start(other).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretKeyMismatchError);
    const message = errorMessage(error);
    expect(message).toContain(`fingerprint ${fingerprintOf(first)}`);
    expect(message).toContain(`fingerprint ${fingerprintOf(other)}`);
    expect(message).toContain('triad node-manager rotate-key');
    expect(message).not.toContain(first);
    expect(message).not.toContain(other);
    // Nor does the key file of a start without TRIAD_SECRET_KEY pass.
    await expect(start()).rejects.toBeInstanceOf(SecretKeyMismatchError);
    // The right key still starts.
    await (await start(first)).close();
  });

  it('starts with the new key after a rotation, and refuses the old one', async () => {
    const old = newKey();
    const running = await start(old);
    const added = await fetch(`${running.url}/api/topo/action/add-node`, {
      method: 'POST',
      headers: { ...LIVE_ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'kept@h', cookie: 'c00kie' }),
    });
    expect(added.status).toBe(200);
    await running.close();
    const fresh = newKey();
    const config = loadNodeManagerConfig({}, { dataDir });
    const database = await openNodeManagerDatabase(config);
    try {
      expect((await rotateSecretKey({ database, dataDir, secretKey: old, newSecretKey: fresh })).resealed).toBe(1);
    } finally {
      await database.close();
    }
    const rotated = await start(fresh);
    const nodes = (await (await fetch(`${rotated.url}/api/topo/node`, { headers: LIVE_ADMIN })).json()) as unknown[];
    expect(nodes).toHaveLength(1);
    await rotated.close();
    await expect(start(old)).rejects.toBeInstanceOf(SecretKeyMismatchError);
  });
});

describePostgresOnly<NodeManagerDatabase>('a second node manager on one database with another key', (getDb, url) => {
  let cluster: NodeManagerCluster;
  afterAll(async () => {
    await cluster?.close();
  }, 60_000);

  it('refuses to start instead of answering every node read with 500', async () => {
    cluster = new NodeManagerCluster(url, getDb().schema ?? '');
    const first = await cluster.startHere();
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    await expect(cluster.startHere({ TRIAD_SECRET_KEY: newKey() })).rejects.toThrow(
      /sealed with another key \(fingerprint [0-9a-f]{16}\)/,
    );
  }, 60_000);
});
