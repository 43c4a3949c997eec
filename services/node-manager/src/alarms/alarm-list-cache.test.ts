import { describe, expect, it } from 'vitest';
import { AlarmListCache } from './alarm-list-cache.js';

describe('AlarmListCache', () => {
  it('returns what was stored for a key until the next write', () => {
    const cache = new AlarmListCache();
    cache.set('newest', cache.generation, ['{"a":1}']);
    expect(cache.get('newest')).toEqual(['{"a":1}']);
    cache.invalidate();
    expect(cache.get('newest')).toBeUndefined();
  });

  it('refuses a result whose query began before a write', () => {
    const cache = new AlarmListCache();
    const before = cache.generation;
    cache.invalidate(); // a write lands while the query runs
    cache.set('newest', before, ['stale']);
    expect(cache.get('newest')).toBeUndefined();
    cache.set('newest', cache.generation, ['fresh']);
    expect(cache.get('newest')).toEqual(['fresh']);
  });

  it('keeps at most its entry bound, dropping the least recently used', () => {
    const cache = new AlarmListCache(2);
    cache.set('a', 0, ['1']);
    cache.set('b', 0, ['2']);
    cache.get('a');
    cache.set('c', 0, ['3']);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([['1'], undefined, ['3']]);
    expect(cache.size).toBe(2);
  });

  it('keeps its total size within the character bound and skips oversized results', () => {
    const cache = new AlarmListCache(100, 800);
    cache.set('big', 0, ['x'.repeat(101)]); // above an eighth of the bound: not kept
    expect(cache.get('big')).toBeUndefined();
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, 0, ['y'.repeat(100)]);
    expect(cache.size).toBe(8);
    expect(cache.get('k0')).toBeUndefined();
    expect(cache.get('k9')).toEqual(['y'.repeat(100)]);
  });
});
