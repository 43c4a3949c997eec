import { describe, expect, it } from 'vitest';
import { randomInt, randomItem, seededRandom } from './seeded-random.js';

/** The first `count` outputs of a fresh generator, as the 32-bit integers they were divided from. */
function firstWords(seed: number, count: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => random() * 2 ** 32);
}

describe('seededRandom', () => {
  it('repeats the sequence the earlier per-package copies produced, so recorded fuzz seeds still reproduce', () => {
    // Read from the three copies this module replaces (erlang-dist, device-templates, content-api).
    expect(firstWords(1, 3)).toEqual([2693262067, 11749833, 2265367787]);
    expect(firstWords(20240611, 3)).toEqual([3749725776, 489302466, 191364739]);
  });

  it('gives the same sequence for the same seed and a different one for another seed', () => {
    expect(firstWords(42, 50)).toEqual(firstWords(42, 50));
    expect(firstWords(42, 50)).not.toEqual(firstWords(43, 50));
  });

  it('uses the low 32 bits of the seed', () => {
    expect(firstWords(2 ** 32 + 5, 10)).toEqual(firstWords(5, 10));
    expect(firstWords(-1, 10)).toEqual(firstWords(0xffffffff, 10));
  });

  it('stays in [0, 1) and spreads evenly over ten buckets', () => {
    const random = seededRandom(7);
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 100_000; i += 1) {
      const value = random();
      expect(value >= 0 && value < 1).toBe(true);
      buckets[Math.floor(value * 10)] = (buckets[Math.floor(value * 10)] ?? 0) + 1;
    }
    // Each bucket expects 10,000; 5 standard deviations (about 475) is far outside chance.
    for (const count of buckets) expect(Math.abs(count - 10_000)).toBeLessThan(475);
  });
});

describe('randomInt', () => {
  it('draws whole numbers below the bound, reaching both ends', () => {
    const random = seededRandom(3);
    const seen = new Set(Array.from({ length: 2_000 }, () => randomInt(random, 6)));
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('rejects a bound that is not a positive whole number', () => {
    const random = seededRandom(3);
    for (const bound of [0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => randomInt(random, bound)).toThrow(RangeError);
    }
  });
});

describe('randomItem', () => {
  it('returns every item of the list sooner or later, and nothing else', () => {
    const random = seededRandom(11);
    const items = ['a', 'b', 'c'] as const;
    const seen = new Set(Array.from({ length: 300 }, () => randomItem(random, items)));
    expect([...seen].sort()).toEqual(['a', 'b', 'c']);
  });

  it('rejects an empty list with a RangeError', () => {
    expect(() => randomItem(seededRandom(1), [])).toThrow(RangeError);
  });
});
