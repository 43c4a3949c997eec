import { describe, expect, it } from 'vitest';
import { IdFingerprints } from './id-fingerprints.js';

describe('IdFingerprints', () => {
  it.each([
    ['in the table', undefined],
    ['moved to the filter after 1,000', 1_000],
  ])('says yes for every id added and no for ids never added, %s', (_, exactIds) => {
    const set = new IdFingerprints(undefined, exactIds);
    const ids = Array.from({ length: 50_000 }, (_, i) => `shop:ART-${i}`);
    for (const id of ids) expect(set.add(id)).toBe(true);
    expect(set.size).toBe(ids.length);
    expect(ids.every((id) => set.has(id))).toBe(true);
    expect(ids.every((id) => !set.add(id))).toBe(true);
    // 64-bit fingerprints, or 50,000 ids in 32 MiB: a false yes among 50,000 others would be a broken hash.
    const others = Array.from({ length: 50_000 }, (_, i) => `shop:ART-${i}x`);
    expect(others.filter((id) => set.has(id))).toEqual([]);
  });

  it('never says no for an id added, also when full: its false yeses the caller confirms', () => {
    const set = new IdFingerprints(1024, 100);
    const ids = Array.from({ length: 2_000 }, (_, i) => `shop:ART-${i}`);
    const fresh = ids.filter((id) => set.add(id)).length;
    expect(set.size).toBe(fresh);
    expect(ids.every((id) => set.has(id))).toBe(true);
    expect(ids.every((id) => !set.add(id))).toBe(true);
    // 8,192 bits for 2,000 ids: some ids never added look added.
    const others = Array.from({ length: 2_000 }, (_, i) => `shop:ART-${i}x`);
    expect(others.some((id) => set.has(id))).toBe(true);
  });

  it('refuses an id added twice and tells ids apart by every code unit', () => {
    const set = new IdFingerprints();
    expect(set.add('a:Ä-1')).toBe(true);
    expect(set.add('a:Ä-1')).toBe(false);
    expect(set.add('a:A-1')).toBe(true);
    expect(set.add('')).toBe(true);
    expect(set.add('')).toBe(false);
    expect(set.size).toBe(3);
  });
});
