import { describe, expect, it } from 'vitest';
import { SecretThrottle } from './secret-throttle.js';

describe('SecretThrottle', () => {
  it('lets a burst of wrong secrets through, then asks to wait until one try has come back', () => {
    const throttle = new SecretThrottle({ burst: 3, windowSeconds: 30 });
    for (let i = 0; i < 3; i += 1) expect(throttle.take('c', 'a', 0)).toBe(0);
    expect(throttle.take('c', 'a', 0)).toBe(10_000);
    expect(throttle.take('c', 'a', 9_999)).toBe(1);
    expect(throttle.take('c', 'a', 10_000)).toBe(0);
    // All tries are back once the window has passed since the last one.
    for (let i = 0; i < 3; i += 1) expect(throttle.take('c', 'a', 40_000 + i)).toBe(0);
  });

  it('throttles per client id from any address, and per address for any client id', () => {
    const throttle = new SecretThrottle({ burst: 2, windowSeconds: 60 });
    expect(throttle.take('c', 'a1', 0)).toBe(0);
    expect(throttle.take('c', 'a2', 0)).toBe(0);
    expect(throttle.take('c', 'a3', 0)).toBeGreaterThan(0);
    expect(throttle.take('d', 'a3', 0)).toBe(0);
    expect(throttle.take('e', 'a3', 0)).toBe(0);
    expect(throttle.take('f', 'a3', 0)).toBeGreaterThan(0);
  });

  it('gives the try of a right secret back, so a client that does not fail is never held', () => {
    const throttle = new SecretThrottle({ burst: 1, windowSeconds: 60 });
    for (let i = 0; i < 100; i += 1) {
      expect(throttle.take('c', 'a', i)).toBe(0);
      throttle.refund('c', 'a', i);
    }
  });

  it('remembers at most maxKeys keys of each kind', () => {
    const throttle = new SecretThrottle({ burst: 1, windowSeconds: 60, maxKeys: 10 });
    for (let i = 0; i < 1000; i += 1) throttle.take(`c${i}`, `a${i}`, 0);
    // The oldest were forgotten (a full bucket again); the newest are still empty.
    expect(throttle.take('c0', 'a0', 0)).toBe(0);
    expect(throttle.take('c999', 'x', 0)).toBeGreaterThan(0);
  });
});
