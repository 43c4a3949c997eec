import { compareCodePoints } from '../code-point-order.js';

/**
 * Dense description ranks (1 = first, code point order, equal descriptions share a rank) after a
 * delta, from the ranks before it: `previous[i]` is the old rank of the article now at position
 * `i`, 0 where its description changed, and `changed` holds those new descriptions by position.
 * The result equals ranking every description again, but reads only the descriptions a binary
 * search needs (`descriptionAt`, by position, only for positions with an old rank): about
 * `changed.size * log2(size / changed.size)` of them instead of the whole shop.
 */
export function patchedDescriptionRanks(
  previous: ArrayLike<number>,
  changed: ReadonlyMap<number, string>,
  descriptionAt: (position: number) => string,
): Uint32Array {
  const size = previous.length;
  let maxRank = 0;
  for (let i = 0; i < size; i += 1) if (previous[i]! > maxRank) maxRank = previous[i]!;
  // One unchanged article per old rank that still has one: the ranks that survive, ascending.
  const holder = new Int32Array(maxRank + 1).fill(-1);
  for (let i = 0; i < size; i += 1) if (previous[i]! > 0) holder[previous[i]!] = i;
  const survivors: number[] = [];
  for (let rank = 1; rank <= maxRank; rank += 1) if (holder[rank]! >= 0) survivors.push(rank);
  const known = new Map<number, string>(); // description by survivor index
  const survivorText = (s: number) => {
    let text = known.get(s);
    if (text === undefined) {
      text = descriptionAt(holder[survivors[s]!]!);
      known.set(s, text);
    }
    return text;
  };
  const texts = [...new Set(changed.values())].sort(compareCodePoints);
  // Merge the new descriptions into the surviving ranks: each gets the survivor it equals or a rank of its own.
  const newSurvivorRank = new Uint32Array(survivors.length);
  const textRank = new Map<string, number>();
  let dense = 0;
  let next = 0; // survivors before `next` are ranked
  for (const text of texts) {
    // Survivors below `text`: a binary search over the whole range, so the probes near the root
    // are shared by every text (and read once).
    let low = 0;
    let high = survivors.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareCodePoints(survivorText(middle), text) < 0) low = middle + 1;
      else high = middle;
    }
    while (next < low) newSurvivorRank[next++] = ++dense;
    if (next < survivors.length && survivorText(next) === text) newSurvivorRank[next++] = ++dense;
    else dense += 1;
    textRank.set(text, dense);
  }
  while (next < survivors.length) newSurvivorRank[next++] = ++dense;
  const renamed = new Uint32Array(maxRank + 1);
  for (let s = 0; s < survivors.length; s += 1) renamed[survivors[s]!] = newSurvivorRank[s]!;
  const ranks = new Uint32Array(size);
  for (let i = 0; i < size; i += 1) {
    const old = previous[i]!;
    if (old > 0) ranks[i] = renamed[old]!;
    else {
      const text = changed.get(i);
      if (text === undefined) throw new RangeError(`position ${i} has neither an old rank nor a new description`);
      ranks[i] = textRank.get(text)!;
    }
  }
  return ranks;
}
