import { describe, expect, it } from 'vitest';
import { PrefixGrouping, PrefixGroups, type WordBytes } from './prefix-groups.js';
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

  it('groups a slice of words at a time as it groups them all at once, taking each list when it reaches it', () => {
    const next = random(7);
    // Lists of every length, empty ones too, words repeated across none (each word once over all).
    const counts = new Map<string, number>();
    for (let i = 0; i < 600; i += 1) counts.set(word(next), 1 + Math.floor(next() * 5));
    const entries = [...counts];
    const lists: WordBytes[] = [];
    for (let at = 0, n = 0; at < entries.length; n += 1) {
      const part = entries.slice(at, at + (n % 4 === 0 ? 0 : 1 + Math.floor(next() * 90)));
      // Each list's words within other bytes, as a bucket's words with digits follow its others.
      const text = Buffer.from(`head\n${part.map(([t]) => t).join('\n')}`, 'utf8');
      lists.push({
        bytes: text,
        from: part.length === 0 ? text.length : 5,
        to: text.length,
        articles: part.map(([, a]) => a),
      });
      at += part.length;
    }
    const whole = new TermDictionary(counts);
    for (const slice of [1, 3, 64, 599, 600, 10_000]) {
      let taken = 0;
      const grouping = new PrefixGrouping(
        (function* () {
          for (const list of lists) {
            taken += 1;
            yield list;
          }
        })(),
      );
      let steps = 0;
      let groups: PrefixGroups | undefined;
      while (!(groups = grouping.step(slice))) {
        steps += 1;
        // Lists are taken as the grouping reaches them: after a first small slice, only the first few.
        if (steps === 1 && slice <= 64) expect(taken, `slice ${slice}`).toBeLessThan(lists.length / 2);
      }
      // Two passes over the words: grouped, then packed.
      const passed = 2 * entries.length;
      expect(steps, `slice ${slice}`).toBe(Math.ceil(passed / slice) - (passed % slice === 0 ? 0 : 1));
      expect(grouping.step(1)).toBe(groups);
      for (const prefix of ['', '0', '1', 'a', 'ae', 'u', 'ß', 'x4', '40']) {
        for (const limit of [1, 5, 1000])
          expect(groups.prefixed(prefix, limit), `slice ${slice} ${prefix}`).toEqual(whole.prefixed(prefix, limit));
      }
    }
  });

  it('orders ties as UTF-16 does, for text whose UTF-8 sorts otherwise and keys cut in a surrogate pair', () => {
    // From U+E000 up, and beyond U+FFFF (two UTF-16 units), UTF-8 and UTF-16 sort differently.
    const alphabet = ['0', '1', '4', 'a', 'é', '\uE000', '\uFFFD', '😀', '𝟘', 'ß', 'ue'];
    for (let seed = 1; seed <= 10; seed += 1) {
      const next = random(seed);
      const counts = new Map<string, number>();
      for (let i = 0; i < 500; i += 1) {
        let text = '';
        for (let n = 1 + Math.floor(next() * 5); n > 0; n -= 1) text += alphabet[Math.floor(next() * alphabet.length)];
        // Mostly one article each, as article ids and GTINs: nearly every word ties.
        counts.set(text, next() < 0.9 ? 1 : 2);
      }
      const groups = PrefixGroups.of(counts);
      const whole = new TermDictionary(counts);
      const prefixes = [...alphabet, '1\uD83D', '\uD83D', '\uD835', '0é', '1😀', '4\uE000'];
      for (const prefix of prefixes)
        for (const limit of [1, 4, 40])
          expect(groups.prefixed(prefix, limit), `seed ${seed} ${prefix} ${limit}`).toEqual(
            whole.prefixed(prefix, limit),
          );
    }
  });

  it('packs the changes in with the words once more than 65,536 are kept apart, finding the same', () => {
    const next = random(11);
    let counts = new Map<string, number>();
    for (let i = 0; i < 3000; i += 1) counts.set(`${word(next)}${i}`, 1 + Math.floor(next() * 5));
    let groups = PrefixGroups.of(counts);
    const check = (label: string, changed: readonly (readonly [string, number])[] = []) => {
      const whole = new TermDictionary(counts);
      // Short prefixes, and words changed less their last letter: every gone one, some others.
      const cut = changed
        .filter(([, articles], i) => articles === 0 || i % 300 === 0)
        .map(([term]) => term.slice(0, -1));
      for (const prefix of ['0', '1', '40', 'a', 'ae', 'ß', 'x9', '12', 'u', ...cut])
        for (const limit of [1, 7, 100])
          expect(groups.prefixed(prefix, limit), `${label} ${prefix} ${limit}`).toEqual(whole.prefixed(prefix, limit));
    };
    check('packed');
    // Rounds of changes: a third of the known words gone, a third counted again, new words added.
    for (let round = 0; round < 3; round += 1) {
      const changes: [string, number][] = [];
      const known = [...counts.keys()];
      for (let i = 0; i < 30_000; i += 1) {
        const pick = next();
        if (pick < 0.05) changes.push([known[Math.floor(next() * known.length)]!, 0]);
        else if (pick < 0.1) changes.push([known[Math.floor(next() * known.length)]!, 1 + Math.floor(next() * 9)]);
        else changes.push([`${word(next)}${round}n${i}`, 1 + Math.floor(next() * 9)]);
      }
      groups = groups.patched(changes);
      counts = new Map(counts);
      for (const [term, articles] of changes)
        if (articles > 0) counts.set(term, articles);
        else counts.delete(term);
      check(`round ${round}`, changes);
      // 30,000 changes (some words twice) are kept apart; 60,000 too; the third round passes 65,536.
      if (round < 2) expect(groups.changedApart).toBeGreaterThan(25_000 * (round + 1));
      else expect(groups.changedApart).toBe(0);
    }
    const last: [string, number][] = [
      ['9zz', 4],
      [[...counts.keys()][0]!, 0],
    ];
    groups = groups.patched(last);
    counts = new Map(counts);
    for (const [term, articles] of last)
      if (articles > 0) counts.set(term, articles);
      else counts.delete(term);
    expect(groups.changedApart).toBe(2);
    check('after', last);
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
