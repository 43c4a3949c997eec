import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CookieCipher, CookieSealError } from './cookie-cipher.js';

describe('CookieCipher', () => {
  const key = randomBytes(32);

  it('seals with AES-GCM under a fresh IV each time and opens what it sealed', () => {
    const cipher = new CookieCipher([key]);
    const a = cipher.seal('monster_cookie');
    const b = cipher.seal('monster_cookie');
    expect(a).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('monster_cookie');
    expect(cipher.open(a)).toBe('monster_cookie');
    expect(cipher.isCurrent(a)).toBe(true);
  });

  it('opens a cookie stored before encryption as itself, and does not count it as current', () => {
    const cipher = new CookieCipher([key]);
    expect(cipher.open('plaincookie')).toBe('plaincookie');
    expect(cipher.isCurrent('plaincookie')).toBe(false);
  });

  it('refuses a tampered value or an unknown key with CookieSealError that never holds the value', () => {
    const cipher = new CookieCipher([key]);
    const sealed = cipher.seal('secret_cookie');
    const parts = sealed.split(':');
    parts[4] = Buffer.from('xxxxxxxxxxxxx').toString('base64url');
    expect(() => cipher.open(parts.join(':'))).toThrow(CookieSealError);
    const other = new CookieCipher([randomBytes(32)]);
    try {
      other.open(sealed);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CookieSealError);
      expect(String(error)).not.toContain('secret_cookie');
    }
  });

  it('opens with every key it holds and seals with the first (rotation)', () => {
    const old = new CookieCipher([key]);
    const rotated = new CookieCipher([randomBytes(32), key]);
    const sealedOld = old.seal('c1');
    expect(rotated.open(sealedOld)).toBe('c1');
    expect(rotated.isCurrent(sealedOld)).toBe(false);
    expect(rotated.isCurrent(rotated.seal('c1'))).toBe(true);
    expect(() => new CookieCipher([randomBytes(16)])).toThrow(RangeError);
  });
});
