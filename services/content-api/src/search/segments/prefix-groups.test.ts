import { describe, expect, it } from 'vitest';
import { PrefixGroups } from './prefix-groups.js';
import { TermDictionary } from './term-dictionary.js';

/** A small deterministic random source (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Digits, and letters that fold (ß, ae/oe/ue) or make keys of one letter once folded (`ae` -> `a`).
const LETTERS = ['0', '1', '2', '4', '40', '9', 'a', 'e', 'ae', 'u', 'ue', 'ß', 'x', 'q'];

function word(next: () => number): string {
  let text = '';
  const length = 1 + Math.floor(next() * 6);
  for (let i = 0; i < length; i += 1) text += LETTERS[Math.floor(next() * LETTERS.length)];
  return text;
}

describe('PrefixGroups', () => {
  it('finds the prefixed words a dictionary of all words finds, through patches and lookups', () => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const next = random(seed);
      let counts = new Map<string, number>();
      for (let i = 0; i < 400; i += 1) counts.set(word(next), 1 + Math.floor(next() * 5));
      let groups = PrefixGroups.of(counts);
      for (let round = 0; round < 12; round += 1) {
        const changes: [string, number][] = [];
        for (let i = 0; i < 30; i += 1) {
          const known = [...counts.keys()];
          const term = next() < 0.5 && known.length > 0 ? known[Math.floor(next() * known.length)]! : word(next);
          changes.push([term, next() < 0.3 ? 0 : 1 + Math.floor(next() * 5)]);
        }
        groups = groups.patched(changes);
        counts = new Map(counts);
        for (const [term, articles] of changes)
          if (articles > 0) counts.set(term, articles);
          else counts.delete(term);
        const whole = new TermDictionary(counts);
        // Some rounds look nothing up: their changes wait, and more than eight are folded in.
        if (round % 3 === 2) continue;
        for (let i = 0; i < 15; i += 1) {
          const prefix = word(next);
          const limit = 1 + Math.floor(next() * 6);
          expect(groups.prefixed(prefix, limit), `seed ${seed} round ${round} ${prefix}`).toEqual(
            whole.prefixed(prefix, limit),
          );
        }
      }
    }
  });

  it('makes dictionaries of the prefixes looked up only', () => {
    const groups = PrefixGroups.of(
      Array.from({ length: 1000 }, (_, i) => [`${String(i).padStart(4, '0')}x`, 1 + (i % 7)] as const),
    );
    expect(groups.prefixed('012', 3)).toEqual(['0123x', '0124x', '0125x']);
    expect(groups.prefixed('0125', 100)).toEqual(['0125x']);
    expect(groups.madePrefixes).toBe(2);
  });
});
