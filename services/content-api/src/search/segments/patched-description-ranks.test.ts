import { describe, expect, it } from 'vitest';
import { compareCodePoints } from '../code-point-order.js';
import { patchedDescriptionRanks, patchedDescriptionRanksBatched } from './patched-description-ranks.js';
import { seededRandom } from '../../test-support/seeded-random.js';

/** Dense ranks ranking every description again, as the full import does. */
function denseRanks(descriptions: readonly string[]): number[] {
  const distinct = [...new Set(descriptions)].sort(compareCodePoints);
  const rank = new Map(distinct.map((d, i) => [d, i + 1]));
  return descriptions.map((d) => rank.get(d)!);
}

describe('patchedDescriptionRanks', () => {
  it('equals ranking every description again after random replacements, additions and removals', async () => {
    // Few letters, so equal descriptions are common; U+1F600 and U+FF21 order differently by
    // code unit and by code point.
    const alphabet = ['a', 'b', 'c', '\u{1F600}', '\uFF21'];
    for (let seed = 1; seed <= 200; seed += 1) {
      const next = seededRandom(seed);
      const word = () => Array.from({ length: 1 + next(3) }, () => alphabet[next(alphabet.length)]!).join('');
      const before = Array.from({ length: next(40) }, word);
      const ranks = denseRanks(before);
      const after = [...before];
      const previous = [...ranks];
      const changed = new Map<number, string>();
      for (let step = next(8); step > 0; step -= 1) {
        const what = next(3);
        if (what === 0 && after.length > 0) {
          const i = next(after.length);
          after[i] = word();
          previous[i] = 0;
          changed.set(i, after[i]);
        } else if (what === 1) {
          after.push(word());
          previous.push(0);
          changed.set(after.length - 1, after[after.length - 1]!);
        } else if (after.length > 0) {
          // The last one moves into the removed place.
          const i = next(after.length);
          const last = after.length - 1;
          after[i] = after[last]!;
          previous[i] = previous[last]!;
          if (changed.has(last)) changed.set(i, changed.get(last)!);
          else changed.delete(i);
          changed.delete(last);
          after.pop();
          previous.pop();
        }
      }
      const read: number[] = [];
      const patched = patchedDescriptionRanks(previous, changed, (i) => {
        expect(previous[i]).toBeGreaterThan(0);
        read.push(i);
        return after[i]!;
      });
      expect([...patched], `seed ${seed}`).toEqual(denseRanks(after));
      expect(read.length).toBeLessThanOrEqual(after.length);
      let batches = 0;
      const batched = await patchedDescriptionRanksBatched(previous, changed, (positions) => {
        batches += 1;
        for (const i of positions) expect(previous[i]).toBeGreaterThan(0);
        return Promise.resolve(new Map(positions.map((i) => [i, after[i]!])));
      });
      expect([...batched], `seed ${seed}, batched`).toEqual(denseRanks(after));
      // One read per binary search step, plus one for the survivors at the bounds.
      expect(batches).toBeLessThanOrEqual(Math.ceil(Math.log2(after.length + 1)) + 2);
      // Some old descriptions known by rank (as a delta knows those it rewrote): the same ranks,
      // and none of the known survivors read.
      const known = new Map<number, string>();
      before.forEach((text, i) => {
        if (next(3) === 0) known.set(ranks[i]!, text);
      });
      const readKnown: string[] = [];
      const withKnown = await patchedDescriptionRanksBatched(
        previous,
        changed,
        (positions) => {
          for (const i of positions) readKnown.push(after[i]!);
          return Promise.resolve(new Map(positions.map((i) => [i, after[i]!])));
        },
        known,
      );
      expect([...withKnown], `seed ${seed}, known`).toEqual(denseRanks(after));
      for (const text of readKnown) expect([...known.values()]).not.toContain(text);
      // Known texts out of order (the first and last swapped) are not used.
      const sorted = [...known].sort((a, b) => a[0] - b[0]);
      const wrong = new Map(sorted);
      if (sorted.length >= 2) {
        wrong.set(sorted[0]![0], sorted[sorted.length - 1]![1]);
        wrong.set(sorted[sorted.length - 1]![0], sorted[0]![1]);
      }
      const withWrong = await patchedDescriptionRanksBatched(
        previous,
        changed,
        (positions) => Promise.resolve(new Map(positions.map((i) => [i, after[i]!]))),
        wrong,
      );
      expect([...withWrong], `seed ${seed}, wrong`).toEqual(denseRanks(after));
    }
  });

  it('reads only the descriptions the binary search needs', () => {
    const before = Array.from({ length: 1024 }, (_, i) => `item ${String(i).padStart(4, '0')}`);
    const previous = denseRanks(before);
    previous[500] = 0;
    const after = [...before];
    after[500] = 'item 0250b';
    let reads = 0;
    const patched = patchedDescriptionRanks(previous, new Map([[500, after[500]]]), (i) => {
      reads += 1;
      return after[i]!;
    });
    expect([...patched]).toEqual(denseRanks(after));
    expect(reads).toBeLessThanOrEqual(12);
  });

  it('refuses a position with neither an old rank nor a new description', () => {
    expect(() => patchedDescriptionRanks([1, 0], new Map(), () => 'x')).toThrow(RangeError);
  });
});
