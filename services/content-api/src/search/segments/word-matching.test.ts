import { describe, expect, it } from 'vitest';
import {
  intersectClassified,
  MATCH_CLASS,
  unionOfAlternatives,
  unionOfPositions,
  type ClassifiedSeqs,
} from './word-matching.js';
import type { MatchClass } from './word-matching.js';

/** Random ascending seqs of `0..range` (each with probability `share`), each with a random class up to `worst`. */
function classified(next: () => number, range: number, share: number, worst: number): ClassifiedSeqs {
  const seqs: number[] = [];
  for (let s = 0; s < range; s += 1) if (next() < share) seqs.push(s * 3);
  const classes = Uint8Array.from(seqs, () => Math.floor(next() * (worst + 1)));
  return { seqs: Float64Array.from(seqs), classes, exact: classes.every((c) => c === 0) };
}

/** The intersection as a map: seq to the worst class among the lists. */
function naive(lists: readonly ClassifiedSeqs[]): Map<number, number> {
  const maps = lists.map((l) => new Map(Array.from(l.seqs, (s, i) => [s, l.classes[i] as number])));
  const [first, ...rest] = maps;
  const out = new Map<number, number>();
  for (const [seq, c] of first ?? []) {
    if (rest.every((m) => m.has(seq))) out.set(seq, Math.max(c, ...rest.map((m) => m.get(seq) as number)));
  }
  return out;
}

describe('intersectClassified', () => {
  it('keeps the articles of every list with their worst class, walked or galloped, and says if all are exact', () => {
    let state = 17;
    const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let round = 0; round < 60; round += 1) {
      const count = 2 + (round % 3);
      // Shares from alike (walked) to a hundred times apart (galloped).
      const lists = Array.from({ length: count }, (_, k) =>
        classified(next, 3000, [0.5, 0.3, 0.005, 0.05][(round + k) % 4] ?? 0.3, round % 5 === 0 ? 0 : 3),
      );
      const got = intersectClassified(lists);
      const expected = naive(lists);
      expect([...got.seqs]).toEqual([...expected.keys()]);
      expect([...got.classes]).toEqual([...expected.values()]);
      expect(got.exact).toBe([...expected.values()].every((c) => c === 0));
    }
  });
});

describe('unionOfAlternatives', () => {
  it('says exact only when every article united has its best class exact', () => {
    const list = (...seqs: number[]) => Float64Array.from(seqs);
    const union = (...lists: [MatchClass, Float64Array][]) =>
      unionOfAlternatives(lists.map(([c, seqs]) => ({ class: c, seqs })));
    expect(union([0, list(1, 2)]).exact).toBe(true);
    expect(union([0, list(1, 2)], [1, list(2, 3)]).exact).toBe(false);
    expect(union([0, list(1, 2, 3)], [3, list(2, 3)]).exact).toBe(true);
    expect(union([1, list()]).exact).toBe(true);
    expect(union().exact).toBe(true);
  });
});

describe('unionOfPositions', () => {
  it('gives the union of alternatives, with the best class of each article, for short and long lists', () => {
    let state = 7;
    const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const classes = [MATCH_CLASS.exact, MATCH_CLASS.prefix, MATCH_CLASS.compound, MATCH_CLASS.typo];
    let tables = 0;
    for (let round = 0; round < 300; round += 1) {
      const size = 1 + Math.floor(next() * 2_000);
      const base = Math.floor(next() * 10_000);
      const density = next() < 0.5 ? 0.002 : 0.3;
      const lists = Array.from({ length: Math.floor(next() * 12) }, () => {
        const positions: number[] = [];
        for (let p = 0; p < size; p += 1) if (next() < density) positions.push(p);
        return { class: classes[Math.floor(next() * 4)]!, positions: Uint32Array.from(positions) };
      });
      const expected = unionOfAlternatives(
        lists.map((l) => ({ class: l.class, seqs: Float64Array.from(l.positions, (p) => base + p) })),
      );
      const got = unionOfPositions(lists, base, size);
      expect([...got.seqs]).toEqual([...expected.seqs]);
      expect([...got.classes]).toEqual([...expected.classes]);
      expect(got.exact).toBe(expected.exact);
      if (lists.length > 1 && density > 0.1) tables += 1;
    }
    expect(tables).toBeGreaterThan(50);
  });
});
