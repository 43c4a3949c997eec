import { describe, expect, it } from 'vitest';
import { innerMap } from './inner-map.js';

describe('innerMap', () => {
  it('creates and stores an empty map for a new key, and gives back the same map after', () => {
    const outer = new Map<string, Map<string, number>>();
    const first = innerMap(outer, 'a');
    expect(first.size).toBe(0);
    expect(outer.get('a')).toBe(first);
    first.set('x', 1);
    expect(innerMap(outer, 'a')).toBe(first);
    expect(innerMap(outer, 'a').get('x')).toBe(1);
    expect(innerMap(outer, 'b')).not.toBe(first);
    expect([...outer.keys()]).toEqual(['a', 'b']);
  });
});
