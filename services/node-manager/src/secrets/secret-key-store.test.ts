import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  NEW_SECRET_KEY_FILE,
  SECRET_KEY_FILE,
  decodeSecretKey,
  loadSecretKeys,
  writeKeyFile,
} from './secret-key-store.js';

describe('loadSecretKeys', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });
  const dataDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'nm-keys-'));
    dirs.push(dir);
    return path.join(dir, 'data');
  };

  it('creates a key file 0600 in a data directory created 0700, and reuses it next time', async () => {
    const dir = await dataDir();
    const first = await loadSecretKeys({ dataDir: dir });
    const file = path.join(dir, SECRET_KEY_FILE);
    expect(first.source).toBe(file);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(decodeSecretKey(await readFile(file, 'utf8'))).toHaveLength(32);
    const sealed = first.cipher.seal('c1');
    const second = await loadSecretKeys({ dataDir: dir });
    expect(second.cipher.open(sealed)).toBe('c1');
    expect(second.cipher.isCurrent(sealed)).toBe(true);
  });

  it('narrows a key file readable by others to 0600', async () => {
    const dir = await dataDir();
    await loadSecretKeys({ dataDir: dir });
    const file = path.join(dir, SECRET_KEY_FILE);
    await chmod(file, 0o644);
    await loadSecretKeys({ dataDir: dir });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('uses the setting (hex or base64) without touching the data directory', async () => {
    const dir = await dataDir();
    const key = randomBytes(32);
    const fromHex = await loadSecretKeys({ secretKey: key.toString('hex'), dataDir: dir });
    const fromBase64 = await loadSecretKeys({ secretKey: key.toString('base64'), dataDir: dir });
    expect(fromBase64.cipher.open(fromHex.cipher.seal('c2'))).toBe('c2');
    await expect(stat(dir)).rejects.toThrow(/ENOENT/);
    expect(() => decodeSecretKey('abc')).toThrow(/32 bytes/);
  });

  it('treats a pending new key as newest, still opening the old, and makes it the key file on finish', async () => {
    const dir = await dataDir();
    const old = await loadSecretKeys({ dataDir: dir });
    const sealedOld = old.cipher.seal('c3');
    const fresh = randomBytes(32);
    await writeKeyFile(path.join(dir, NEW_SECRET_KEY_FILE), fresh);
    const rotating = await loadSecretKeys({ dataDir: dir });
    expect(rotating.cipher.open(sealedOld)).toBe('c3');
    expect(rotating.cipher.isCurrent(sealedOld)).toBe(false);
    await rotating.finish();
    expect(decodeSecretKey(await readFile(path.join(dir, SECRET_KEY_FILE), 'utf8'))).toEqual(fresh);
    await expect(stat(path.join(dir, NEW_SECRET_KEY_FILE))).rejects.toThrow(/ENOENT/);
  });
});
