import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit } from '@triad/common';
import { defaultHashConcurrency, PasswordHashBusyError, PasswordHasher } from './password-hasher.js';

describe('password hasher', () => {
  it('runs one scrypt at a time with concurrency 1, queueing the others, and checks each right', async () => {
    const hasher = new PasswordHasher(16, 1);
    const stored = await hasher.hash('right1');
    const checks = ['right1', 'wrong1', 'right1', 'wrong2'].map((password) => hasher.verify(password, stored));
    expect(hasher.load).toEqual({ running: 1, waiting: 3 });
    expect(await Promise.all(checks)).toEqual([true, false, true, false]);
    expect(hasher.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a check while every run is taken and the queue is full, then takes checks again', async () => {
    const hasher = new PasswordHasher(16, 1, 2);
    const stored = await hasher.hash('right1');
    const checks = ['right1', 'wrong1', 'right1'].map((password) => hasher.verify(password, stored));
    expect(hasher.load).toEqual({ running: 1, waiting: 2 });
    await expect(hasher.verify('right1', stored)).rejects.toBeInstanceOf(PasswordHashBusyError);
    expect(await Promise.all(checks)).toEqual([true, false, true]);
    expect(await hasher.verify('right1', stored)).toBe(true);
    expect(() => new PasswordHasher(16, 1, -1)).toThrow(RangeError);
  });

  it('lets `concurrency` runs go at once', () => {
    const hasher = new PasswordHasher(16, 2);
    const checks = Array.from({ length: 3 }, () => hasher.hash('pw1'));
    expect(hasher.load).toEqual({ running: 2, waiting: 1 });
    return Promise.all(checks);
  });

  it('keeps a core free by default: one hash at a time on 2 cores, 3 on 4, never 0', () => {
    expect([1, 2, 4].map((cores) => defaultHashConcurrency(cores))).toEqual([1, 1, 3]);
    expect(() => new PasswordHasher(16, 0)).toThrow(RangeError);
  });

  it('starts waiting tasks in arrival order and survives failing ones', async () => {
    const limit = new ConcurrencyLimit(1);
    const order: number[] = [];
    const runs = [1, 2, 3].map((n) =>
      limit.run(async () => {
        order.push(n);
        await Promise.resolve();
        if (n === 2) throw new Error('two');
        return n;
      }),
    );
    expect(await Promise.allSettled(runs)).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason: new Error('two') },
      { status: 'fulfilled', value: 3 },
    ]);
    expect(order).toEqual([1, 2, 3]);
    expect([limit.running, limit.waiting]).toEqual([0, 0]);
  });
});
