import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SecretKeyMismatchError } from '@triad/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTemplatesServer } from './server.js';

describe('a template service whose secret key is not the database’s', () => {
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tpl-key-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });
  const start = (key: string) =>
    startTemplatesServer({ port: 0, dataDir }, { env: { TRIAD_LOG_LEVEL: 'silent', TRIAD_SECRET_KEY: key } });

  it('refuses to start, naming the fingerprint of the key the stored device secrets need', async () => {
    const first = randomBytes(32).toString('hex');
    await (await start(first)).close();
    const error = await start(randomBytes(32).toString('hex')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretKeyMismatchError);
    expect((error as SecretKeyMismatchError).message).toContain(
      `fingerprint ${(error as SecretKeyMismatchError).expected}`,
    );
    await (await start(first)).close();
  });
});
