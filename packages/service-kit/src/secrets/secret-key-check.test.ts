import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretCipher } from './secret-cipher.js';
import { keyFingerprint, SecretKeyMismatchError, verifySecretKey, type KeyCheckStore } from './secret-key-check.js';

const PURPOSE = { aad: 'triad-test:secret', what: 'test secret' };
const NAMES = { setting: 'TRIAD_SECRET_KEY', rotate: 'triad test rotate-key' };

/** A store like a database table: one value per purpose, first writer wins. */
class MemoryStore implements KeyCheckStore {
  readonly values = new Map<string, string>();
  read(purpose: string): Promise<string | undefined> {
    return Promise.resolve(this.values.get(purpose));
  }
  recordIfAbsent(purpose: string, value: string): Promise<string> {
    if (!this.values.has(purpose)) this.values.set(purpose, value);
    return Promise.resolve(this.values.get(purpose) ?? value);
  }
  replace(purpose: string, value: string): Promise<void> {
    this.values.set(purpose, value);
    return Promise.resolve();
  }
}

describe('verifySecretKey', () => {
  const key = randomBytes(32);
  const cipher = new SecretCipher([key], PURPOSE);

  it('records the key at the first start and accepts the same key later', async () => {
    const store = new MemoryStore();
    expect((await verifySecretKey(cipher, store, NAMES)).matched).toBe('recorded');
    expect((await verifySecretKey(new SecretCipher([key], PURPOSE), store, NAMES)).matched).toBe('current');
    const recorded = store.values.get(PURPOSE.aad) ?? '';
    expect(recorded).not.toContain(key.toString('hex'));
    expect(recorded).not.toContain(key.toString('base64'));
  });

  it('refuses another key, naming the expected fingerprint and how to rotate, never a key', async () => {
    const store = new MemoryStore();
    await verifySecretKey(cipher, store, NAMES);
    const other = randomBytes(32);
    const error = await verifySecretKey(new SecretCipher([other], PURPOSE), store, NAMES).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretKeyMismatchError);
    const mismatch = error as SecretKeyMismatchError;
    const expected = keyFingerprint(cipher.checkValues()[0] ?? '');
    expect(mismatch.expected).toBe(expected);
    expect(mismatch.message).toContain(`fingerprint ${expected}`);
    expect(mismatch.message).toContain('triad test rotate-key');
    for (const k of [key, other]) {
      expect(mismatch.message).not.toContain(k.toString('hex'));
      expect(mismatch.message).not.toContain(k.toString('base64'));
    }
  });

  it('lets the loser of two first starts with different keys know', async () => {
    const store = new MemoryStore();
    const other = new SecretCipher([randomBytes(32)], PURPOSE);
    const results = await Promise.allSettled([
      verifySecretKey(cipher, store, NAMES),
      verifySecretKey(other, store, NAMES),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('accepts the previous key of a rotation and records the new one on commit', async () => {
    const store = new MemoryStore();
    await verifySecretKey(cipher, store, NAMES);
    const fresh = randomBytes(32);
    const rotating = new SecretCipher([fresh, key], PURPOSE);
    const check = await verifySecretKey(rotating, store, NAMES);
    expect(check.matched).toBe('previous');
    await check.commit();
    expect((await verifySecretKey(new SecretCipher([fresh], PURPOSE), store, NAMES)).matched).toBe('current');
    await expect(verifySecretKey(cipher, store, NAMES)).rejects.toBeInstanceOf(SecretKeyMismatchError);
  });

  it('keeps one check value per purpose: the same key checks apart for two kinds of secret', () => {
    const other = new SecretCipher([key], { aad: 'triad-test:other', what: 'other' });
    expect(other.checkValues()).not.toEqual(cipher.checkValues());
  });
});
