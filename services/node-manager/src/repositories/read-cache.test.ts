import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache.js';

const chars = (texts: readonly string[]) => texts.reduce((n, t) => n + t.length, 0);

describe('ReadCache', () => {
  it('returns what was stored for a key until the next write', () => {
    const cache = new ReadCache(chars);
    cache.set('newest', cache.generation, ['{"a":1}']);
    expect(cache.get('newest')).toEqual(['{"a":1}']);
    cache.invalidate();
    expect(cache.get('newest')).toBeUndefined();
  });

  it('refuses a result whose query began before a write', () => {
    const cache = new ReadCache(chars);
    const before = cache.generation;
    cache.invalidate(); // a write lands while the query runs
    cache.set('newest', before, ['stale']);
    expect(cache.get('newest')).toBeUndefined();
    cache.set('newest', cache.generation, ['fresh']);
    expect(cache.get('newest')).toEqual(['fresh']);
  });

  it('keeps at most its entry bound, dropping the least recently used', () => {
    const cache = new ReadCache(chars, 2);
    cache.set('a', 0, ['1']);
    cache.set('b', 0, ['2']);
    cache.get('a');
    cache.set('c', 0, ['3']);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([['1'], undefined, ['3']]);
    expect(cache.size).toBe(2);
  });

  it('keeps its total size within the character bound and skips oversized results', () => {
    const cache = new ReadCache(chars, 100, 800);
    cache.set('big', 0, ['x'.repeat(101)]); // above an eighth of the bound: not kept
    expect(cache.get('big')).toBeUndefined();
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, 0, ['y'.repeat(100)]);
    expect(cache.size).toBe(8);
    expect(cache.get('k0')).toBeUndefined();
    expect(cache.get('k9')).toEqual(['y'.repeat(100)]);
  });

  it('loads through the cache once until a write, and never stores a load overtaken by a write', async () => {
    const cache = new ReadCache(chars);
    let loads = 0;
    const load = () => Promise.resolve([`v${++loads}`]);
    expect(await cache.through('k', load)).toEqual(['v1']);
    expect(await cache.through('k', load)).toEqual(['v1']);
    cache.invalidate();
    expect(await cache.through('k', load)).toEqual(['v2']);
    const overtaken = cache.through('k2', () => {
      cache.invalidate(); // a write while the load runs
      return Promise.resolve(['old']);
    });
    expect(await overtaken).toEqual(['old']);
    expect(cache.get('k2')).toBeUndefined();
  });

  it('with a maximum age, forgets a result once it is that old', () => {
    let now = 1_000;
    const cache = new ReadCache(chars, 10, 1000, { ms: 500, now: () => now });
    cache.set('newest', cache.generation, ['{"a":1}']);
    now += 499;
    expect(cache.get('newest')).toEqual(['{"a":1}']);
    now += 1;
    expect(cache.get('newest')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
