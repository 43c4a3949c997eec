import { describe, expect, it } from 'vitest';
import { compareCodePoints } from '../code-point-order.js';
import { batchedLowerBounds } from './batched-lower-bounds.js';

describe('batchedLowerBounds', () => {
  it('finds where each key sorts among 10,000 texts in about log2 rounds, reading each text at most once', async () => {
    const sorted = Array.from({ length: 10_000 }, (_, i) => `id-${String(i * 3).padStart(6, '0')}`);
    // Between two texts, equal to one, before all, after all, and a code point order trap (U+1F600 > U+FF21).
    const keys = ['id-000004', 'id-000300', '', 'zz', 'id-\u{1F600}', 'id-\uFF21'].sort(compareCodePoints);
    const reads: number[][] = [];
    const { bounds, textAt } = await batchedLowerBounds(keys, sorted.length, (indices) => {
      reads.push([...indices]);
      return Promise.resolve(new Map(indices.map((i) => [i, sorted[i]!])));
    });
    const expected = keys.map((key) => sorted.filter((text) => compareCodePoints(text, key) < 0).length);
    expect([...bounds]).toEqual(expected);
    expect(textAt(bounds[keys.indexOf('id-000300')]!)).toBe('id-000300');
    expect(reads.length).toBeLessThanOrEqual(Math.ceil(Math.log2(sorted.length)) + 2);
    const all = reads.flat();
    expect(new Set(all).size).toBe(all.length);
  });

  it('says which index it could not read', async () => {
    await expect(batchedLowerBounds(['a'], 4, () => Promise.resolve(new Map()))).rejects.toThrow(
      'no text at index 2 of 4',
    );
  });
});
