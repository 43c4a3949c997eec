import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretCipher, SecretSealError } from './secret-cipher.js';

const PURPOSE = { aad: 'triad-test:secret', what: 'test secret' };

describe('SecretCipher', () => {
  const key = randomBytes(32);
  const cipher = new SecretCipher([key], PURPOSE);

  it('opens what it sealed, and never stores the value in clear', () => {
    const sealed = cipher.seal('s3cret cookie');
    expect(sealed).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    expect(sealed).not.toContain('s3cret');
    expect(cipher.open(sealed)).toBe('s3cret cookie');
    expect(cipher.isCurrent(sealed)).toBe(true);
  });

  it('says which key a value needs and how to fix it when another instance sealed it', () => {
    const other = new SecretCipher([randomBytes(32)], PURPOSE);
    const sealed = other.seal('from another instance');
    let error: unknown;
    try {
      cipher.open(sealed);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SecretSealError);
    const message = (error as Error).message;
    expect(message).toContain(sealed.split(':')[2]);
    expect(message).toContain('same TRIAD_SECRET_KEY');
    expect(message).not.toContain('from another instance');
  });

  it('refuses a tampered value and a value sealed for another use', () => {
    const sealed = cipher.seal('value');
    const parts = sealed.split(':');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(() => cipher.open(parts.join(':'))).toThrow(/integrity/);
    const otherUse = new SecretCipher([key], { aad: 'triad-test:other', what: 'other' });
    expect(() => otherUse.open(sealed)).toThrow(SecretSealError);
  });

  it('opens with an older key during a rotation and reports the value as not current', () => {
    const fresh = new SecretCipher([randomBytes(32), key], PURPOSE);
    const old = cipher.seal('kept');
    expect(fresh.open(old)).toBe('kept');
    expect(fresh.isCurrent(old)).toBe(false);
  });
});
