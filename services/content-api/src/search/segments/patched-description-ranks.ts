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
  const plan = survivorsOf(previous, changed);
  const { survivors, holder } = plan;
  const known = new Map<number, string>(); // description by survivor index
  const survivorText = (s: number) => {
    let text = known.get(s);
    if (text === undefined) {
      text = descriptionAt(holder[survivors[s] ?? 0] ?? 0);
      known.set(s, text);
    }
    return text;
  };
  const bounds = plan.texts.map((text) => {
    // A binary search over the whole range, so the probes near the root are shared by every text (and read once).
    let low = 0;
    let high = survivors.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareCodePoints(survivorText(middle), text) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  });
  return mergeRanks(previous, changed, plan, bounds, (s) => survivorText(s));
}

/**
 * `patchedDescriptionRanks` with descriptions read in batches (`read`, positions to
 * descriptions): one read per step of all the binary searches together, for stores where each
 * read is a round trip. `known` holds descriptions the caller has already, by old rank (those of
 * the articles a delta rewrote, deleted or moved, as stored before it): each is the text of its
 * rank, so a search starts between the known ranks around its text, and reads none of them.
 * Known texts out of rank order are ignored.
 */
export async function patchedDescriptionRanksBatched(
  previous: ArrayLike<number>,
  changed: ReadonlyMap<number, string>,
  read: (positions: readonly number[]) => Promise<ReadonlyMap<number, string>>,
  known: ReadonlyMap<number, string> = new Map(),
): Promise<Uint32Array> {
  const plan = survivorsOf(previous, changed);
  const { survivors, holder } = plan;
  const position = (s: number) => holder[survivors[s] ?? 0] ?? 0;
  // Survivors (by index) with an old rank below `rank`.
  const below = (rank: number) => {
    let low = 0;
    let high = survivors.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((survivors[middle] ?? 0) < rank) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const pivots = [...known].filter(([rank]) => rank >= 1).sort((a, b) => a[0] - b[0]);
  const ordered = pivots.every(([, text], i) => i === 0 || compareCodePoints(pivots[i - 1]![1], text) < 0);
  if (!ordered) pivots.length = 0;
  const texts = new Map<number, string>(); // by survivor index
  for (const [rank, text] of pivots) if ((holder[rank] ?? -1) >= 0) texts.set(below(rank), text);
  const keys = plan.texts;
  const low = new Uint32Array(keys.length);
  const high = new Uint32Array(keys.length).fill(survivors.length);
  keys.forEach((key, k) => {
    // The first known text not below the key: survivors of its rank and above are not below the key,
    // those of the known rank before it are.
    let a = 0;
    let b = pivots.length;
    while (a < b) {
      const middle = (a + b) >>> 1;
      if (compareCodePoints(pivots[middle]![1], key) < 0) a = middle + 1;
      else b = middle;
    }
    if (a > 0) low[k] = below(pivots[a - 1]![0] + 1);
    if (a < pivots.length) high[k] = below(pivots[a]![0]);
  });
  const fetch = async (wanted: Set<number>) => {
    for (const s of texts.keys()) wanted.delete(s);
    if (wanted.size === 0) return;
    const found = await read([...wanted].map(position));
    for (const s of wanted) {
      const text = found.get(position(s));
      if (text === undefined) throw new RangeError(`no description at position ${position(s)}`);
      texts.set(s, text);
    }
  };
  for (;;) {
    const wanted = new Set<number>();
    for (let k = 0; k < keys.length; k += 1)
      if ((low[k] ?? 0) < (high[k] ?? 0)) wanted.add(((low[k] ?? 0) + (high[k] ?? 0)) >>> 1);
    if (wanted.size === 0) break;
    await fetch(wanted);
    keys.forEach((key, k) => {
      const lo = low[k] ?? 0;
      const hi = high[k] ?? 0;
      if (lo >= hi) return;
      const middle = (lo + hi) >>> 1;
      const text = texts.get(middle);
      if (text === undefined) throw new RangeError(`no description read for survivor ${middle}`);
      if (compareCodePoints(text, key) < 0) low[k] = middle + 1;
      else high[k] = middle;
    });
  }
  // The survivor at each bound, to tell one equal to its key.
  const atBounds = new Set<number>();
  for (const bound of low) if (bound < survivors.length) atBounds.add(bound);
  await fetch(atBounds);
  return mergeRanks(previous, changed, plan, Array.from(low), (s) => texts.get(s));
}

/** The old ranks that survive a delta (ascending), one position holding each, and the new texts in order. */
interface SurvivorPlan {
  readonly maxRank: number;
  readonly survivors: readonly number[];
  readonly holder: Int32Array;
  readonly texts: readonly string[];
}

function survivorsOf(previous: ArrayLike<number>, changed: ReadonlyMap<number, string>): SurvivorPlan {
  const size = previous.length;
  let maxRank = 0;
  for (let i = 0; i < size; i += 1) if ((previous[i] ?? 0) > maxRank) maxRank = previous[i] ?? 0;
  // One unchanged article per old rank that still has one: the ranks that survive, ascending.
  const holder = new Int32Array(maxRank + 1).fill(-1);
  for (let i = 0; i < size; i += 1) if ((previous[i] ?? 0) > 0) holder[previous[i] ?? 0] = i;
  const survivors: number[] = [];
  for (let rank = 1; rank <= maxRank; rank += 1) if ((holder[rank] ?? -1) >= 0) survivors.push(rank);
  return { maxRank, survivors, holder, texts: [...new Set(changed.values())].sort(compareCodePoints) };
}

/**
 * Merges the new descriptions into the surviving ranks, given for each text (in `plan.texts`
 * order) how many survivors sort below it: each gets the survivor it equals or a rank of its own.
 */
function mergeRanks(
  previous: ArrayLike<number>,
  changed: ReadonlyMap<number, string>,
  plan: SurvivorPlan,
  bounds: readonly number[],
  survivorText: (s: number) => string | undefined,
): Uint32Array {
  const { survivors, maxRank } = plan;
  const size = previous.length;
  const newSurvivorRank = new Uint32Array(survivors.length);
  const textRank = new Map<string, number>();
  let dense = 0;
  let next = 0; // survivors before `next` are ranked
  plan.texts.forEach((text, t) => {
    const low = bounds[t] ?? 0;
    while (next < low) newSurvivorRank[next++] = ++dense;
    if (next < survivors.length && survivorText(next) === text) newSurvivorRank[next++] = ++dense;
    else dense += 1;
    textRank.set(text, dense);
  });
  while (next < survivors.length) newSurvivorRank[next++] = ++dense;
  const renamed = new Uint32Array(maxRank + 1);
  for (let s = 0; s < survivors.length; s += 1) renamed[survivors[s] ?? 0] = newSurvivorRank[s] ?? 0;
  const ranks = new Uint32Array(size);
  for (let i = 0; i < size; i += 1) {
    const old = previous[i] ?? 0;
    if (old > 0) ranks[i] = renamed[old] ?? 0;
    else {
      const text = changed.get(i);
      if (text === undefined) throw new RangeError(`position ${i} has neither an old rank nor a new description`);
      const rank = textRank.get(text);
      if (rank === undefined) throw new RangeError(`no rank for the new description at position ${i}`);
      ranks[i] = rank;
    }
  }
  return ranks;
}
