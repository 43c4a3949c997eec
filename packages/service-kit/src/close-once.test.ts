import { describe, expect, it } from 'vitest';
import { closeOnce } from './close-once.js';

describe('closeOnce', () => {
  it('runs every step once, in order, however often it is called', async () => {
    const ran: string[] = [];
    const close = closeOnce(
      async () => ran.push('app'),
      () => ran.push('database'),
    );
    await Promise.all([close(), close()]);
    await close();
    expect(ran).toEqual(['app', 'database']);
  });

  it('still runs later steps when one fails, then rejects with the first failure', async () => {
    const ran: string[] = [];
    const close = closeOnce(
      async () => {
        ran.push('app');
        throw new Error('app would not close');
      },
      async () => {
        ran.push('monitor');
        throw new Error('second');
      },
      async () => ran.push('database'),
    );
    await expect(close()).rejects.toThrow('app would not close');
    expect(ran).toEqual(['app', 'monitor', 'database']);
    await expect(close()).rejects.toThrow('app would not close');
    expect(ran).toHaveLength(3);
  });
});
