import { describe, expect, it } from 'vitest';
import { bucketCount, bucketOf, findPostings, intersectPostings, PostingsBuilder } from './word-postings.js';

describe('word postings', () => {
  it('finds every word at its positions in its bucket, once per article', () => {
    const builder = new PostingsBuilder();
    const texts = ['blue pen blue', 'red pen', 'grün 4000000079194', '', 'pen'];
    // Positions far apart need several varint bytes.
    texts.forEach((text, i) => builder.add(i * 100_000, text));
    builder.add(3_000_000_000, 'pen');
    const buckets = builder.encode();
    expect(buckets).toHaveLength(bucketCount(builder.distinctWords));
    const positions = (word: string) => [...findPostings(buckets[bucketOf(word, buckets.length)]!, word)];
    expect(positions('pen')).toEqual([0, 100_000, 400_000, 3_000_000_000]);
    expect(positions('blue')).toEqual([0]);
    expect(positions('grün')).toEqual([200_000]);
    expect(positions('4000000079194')).toEqual([200_000]);
    expect(positions('green')).toEqual([]);
  });

  it('spreads many words over several buckets and still finds each', () => {
    const builder = new PostingsBuilder();
    for (let i = 0; i < 3000; i += 1) builder.add(i, `w${i} common w${i + 1}`);
    const buckets = builder.encode();
    expect(buckets.length).toBeGreaterThan(1);
    const find = (word: string) => [...findPostings(buckets[bucketOf(word, buckets.length)]!, word)];
    expect(find('w1500')).toEqual([1499, 1500]);
    expect(find('common')).toHaveLength(3000);
  });

  it('intersects lists of any lengths', () => {
    const a = Uint32Array.from([1, 3, 5, 7, 9, 1000, 5000]);
    const b = Uint32Array.from(Array.from({ length: 6000 }, (_, i) => i));
    const c = Uint32Array.from([3, 7, 5000, 7000]);
    expect([...intersectPostings([a, b, c])]).toEqual([3, 7, 5000]);
    expect([...intersectPostings([a, Uint32Array.from([2, 4])])]).toEqual([]);
    expect([...intersectPostings([b])]).toHaveLength(6000);
  });
});
