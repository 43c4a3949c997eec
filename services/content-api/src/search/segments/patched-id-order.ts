/**
 * A shop's id order (positions in article id order) after a delta, from the order before it:
 * `kept` holds the final positions of the old articles still there, in their old id order;
 * `added` the final positions of the new articles, in id order; `preceding[n]` the final position
 * of the article whose id comes right before that of `added[n]` among the shop's articles after
 * the delta (an old one or a new one), or null when none does. Each new article goes right after
 * that one, so the result equals sorting every id again while reading only the new ids' neighbours.
 */
export function mergedIdOrder(
  size: number,
  kept: readonly number[],
  added: readonly number[],
  preceding: readonly (number | null | undefined)[],
): Uint32Array {
  if (kept.length + added.length !== size)
    throw new Error(`id order of ${kept.length} kept and ${added.length} new articles for ${size}`);
  const keptIndex = new Int32Array(size).fill(-1);
  kept.forEach((position, i) => (keptIndex[position] = i));
  // How many kept articles go before each new one: one more than its predecessor's index when that
  // is kept, the same as its predecessor's when that is new (placed already: they go in id order).
  const bounds = new Uint32Array(added.length);
  const boundOfAdded = new Map<number, number>();
  added.forEach((position, n) => {
    const before = preceding[n];
    let bound = 0;
    if (before !== undefined && before !== null) {
      const i = keptIndex[before] ?? -1;
      const after = boundOfAdded.get(before);
      if (i >= 0) bound = i + 1;
      else if (after !== undefined) bound = after;
      else
        throw new Error(`the article before the new one at position ${position} (${before}) is neither kept nor new`);
    }
    if (n > 0 && bound < (bounds[n - 1] ?? 0)) throw new Error(`new articles out of id order at position ${position}`);
    bounds[n] = bound;
    boundOfAdded.set(position, bound);
  });
  const order = new Uint32Array(size);
  let at = 0;
  let k = 0;
  added.forEach((position, n) => {
    while (k < (bounds[n] ?? 0)) order[at++] = kept[k++] ?? 0;
    order[at++] = position;
  });
  while (k < kept.length) order[at++] = kept[k++] ?? 0;
  return order;
}
