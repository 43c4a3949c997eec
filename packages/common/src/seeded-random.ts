/** A source of numbers in [0, 1), like `Math.random`, that a seed makes repeatable. */
export type RandomSource = () => number;

/**
 * mulberry32: a small, fast generator of numbers in [0, 1) from a 32-bit seed. The same seed gives
 * the same sequence on every platform, so a failing fuzz input or a demo catalogue can be reproduced
 * from its seed. Not for anything secret. Only the low 32 bits of `seed` count (`2 ** 32 + 1` is 1).
 */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A whole number in [0, `below`) drawn from `random`.
 *
 * @throws RangeError when `below` is not a positive safe integer.
 */
export function randomInt(random: RandomSource, below: number): number {
  if (!Number.isSafeInteger(below) || below <= 0) {
    throw new RangeError(`randomInt needs a positive whole bound, not ${below}`);
  }
  return Math.floor(random() * below);
}

/**
 * One item of `items`, each equally likely, drawn from `random`.
 *
 * @throws RangeError when `items` is empty.
 */
export function randomItem<T>(random: RandomSource, items: readonly T[]): T {
  if (items.length === 0) throw new RangeError('randomItem needs at least one item');
  // randomInt stays below the length, so the index is always in range.
  return items[randomInt(random, items.length)] as T;
}
