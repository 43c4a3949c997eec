import { compareCodePoints } from '../code-point-order.js';

/** Reads the texts at some indices of a sorted sequence (one statement, typically). */
export type ReadTexts = (indices: readonly number[]) => Promise<ReadonlyMap<number, string>>;

/**
 * The lower bound of each key (how many elements sort below it, code point order) in a sorted
 * sequence of `length` texts that is read by index through `read`: every key's binary search
 * advances one step per round and each round reads what all of them need in one call, so
 * `k` keys cost about `log2(length)` reads of at most `k` texts each, instead of `k * log2(length)`
 * single reads. The element at each bound is read too, so callers can tell an equal one apart.
 */
export async function batchedLowerBounds(
  keys: readonly string[],
  length: number,
  read: ReadTexts,
): Promise<{ readonly bounds: Uint32Array; readonly textAt: (index: number) => string | undefined }> {
  const low = new Uint32Array(keys.length);
  const high = new Uint32Array(keys.length).fill(length);
  const known = new Map<number, string>();
  const fetch = async (wanted: Set<number>) => {
    for (const index of known.keys()) wanted.delete(index);
    if (wanted.size === 0) return;
    const texts = await read([...wanted]);
    for (const index of wanted) {
      const text = texts.get(index);
      if (text === undefined) throw new RangeError(`no text at index ${index} of ${length}`);
      known.set(index, text);
    }
  };
  for (;;) {
    const wanted = new Set<number>();
    for (let k = 0; k < keys.length; k += 1) {
      const lo = low[k] ?? 0;
      const hi = high[k] ?? 0;
      if (lo < hi) wanted.add((lo + hi) >>> 1);
    }
    if (wanted.size === 0) break;
    await fetch(wanted);
    for (const [k, key] of keys.entries()) {
      const lo = low[k] ?? 0;
      const hi = high[k] ?? 0;
      if (lo >= hi) continue;
      const middle = (lo + hi) >>> 1;
      const text = known.get(middle);
      if (text === undefined) throw new RangeError(`no text at index ${middle} of ${length}`);
      if (compareCodePoints(text, key) < 0) low[k] = middle + 1;
      else high[k] = middle;
    }
  }
  const atBounds = new Set<number>();
  for (const bound of low) if (bound < length) atBounds.add(bound);
  await fetch(atBounds);
  return { bounds: low, textAt: (index) => known.get(index) };
}
