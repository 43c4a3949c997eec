import { describe, expect, it } from 'vitest';
import { closeOnce } from './close-once.js';

describe('closeOnce', () => {
  it('runs every step once, in order, however often it is called', async () => {
    const ran: string[] = [];
    const close = closeOnce(
      () => Promise.resolve().then(() => ran.push('app')),
      () => ran.push('database'),
    );
    await Promise.all([close(), close()]);
    await close();
    expect(ran).toEqual(['app', 'database']);
  });

  it('still runs later steps when one fails, then rejects with the first failure', async () => {
    const ran: string[] = [];
    const close = closeOnce(
      () => {
        ran.push('app');
        return Promise.reject(new Error('app would not close'));
      },
      () => {
        ran.push('monitor');
        return Promise.reject(new Error('second'));
      },
      () => Promise.resolve().then(() => ran.push('database')),
    );
    await expect(close()).rejects.toThrow('app would not close');
    expect(ran).toEqual(['app', 'monitor', 'database']);
    await expect(close()).rejects.toThrow('app would not close');
    expect(ran).toHaveLength(3);
  });
});
