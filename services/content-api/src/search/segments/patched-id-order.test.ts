import { describe, expect, it } from 'vitest';
import { mergedIdOrder } from './patched-id-order.js';

/** Positions `0..ids.length-1` in id order. */
const sortedPositions = (ids: readonly string[]) =>
  ids.map((_, i) => i).sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));

describe('mergedIdOrder', () => {
  it('equals sorting every id again, for new ids before, between and after the kept ones', () => {
    // Kept ids sit at the even positions, new ones at the odd: the merge sees only their neighbours.
    for (const added of [[], ['a'], ['c1', 'c2', 'c3'], ['0', 'zz'], ['b', 'd', 'f', 'h']]) {
      const kept = ['b0', 'd0', 'f0', 'h0'];
      const ids: string[] = [];
      for (let i = 0; i < Math.max(kept.length, added.length); i += 1) {
        if (i < kept.length) ids.push(kept[i]!);
        if (i < added.length) ids.push(added[i]!);
      }
      const order = sortedPositions(ids);
      const isNew = (p: number) => added.includes(ids[p]!);
      const keptOrder = order.filter((p) => !isNew(p));
      const addedOrder = order.filter(isNew);
      const preceding = addedOrder.map((p) => {
        const at = order.indexOf(p);
        return at === 0 ? null : order[at - 1]!;
      });
      expect([...mergedIdOrder(ids.length, keptOrder, addedOrder, preceding)]).toEqual(order);
    }
  });

  it('refuses a predecessor that is neither kept nor new, and counts that do not add up', () => {
    expect(() => mergedIdOrder(2, [0], [1], [5])).toThrow(/neither kept nor new/);
    expect(() => mergedIdOrder(3, [0], [1], [0])).toThrow(/1 kept and 1 new articles for 3/);
    // New ones given out of id order: the second's predecessor comes before the first's.
    expect(() => mergedIdOrder(4, [0, 1], [2, 3], [1, 0])).toThrow(/out of id order/);
  });
});
