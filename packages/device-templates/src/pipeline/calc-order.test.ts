import { describe, expect, it } from 'vitest';
import { dependentsOf, orderCalculations } from './calc-order.js';

describe('orderCalculations', () => {
  it('puts every calculation after the calculations it reads', () => {
    // 3 reads 4, 4 reads 5, 5 reads 0 (not calculated); document order 3, 4, 5.
    const result = orderCalculations([
      { index: 3, inputs: [4] },
      { index: 4, inputs: [5, 0] },
      { index: 5, inputs: [0] },
    ]);
    expect(result).toEqual({ ok: true, order: [5, 4, 3] });
  });

  it('keeps document order between independent calculations', () => {
    expect(
      orderCalculations([
        { index: 2, inputs: [0] },
        { index: 1, inputs: [] },
      ]),
    ).toEqual({ ok: true, order: [2, 1] });
  });

  it('reports a cycle with the datapoints along it', () => {
    const result = orderCalculations([
      { index: 1, inputs: [2] },
      { index: 2, inputs: [3] },
      { index: 3, inputs: [1] },
      { index: 4, inputs: [1] },
    ]);
    expect(result).toEqual({ ok: false, cycles: [[1, 2, 3]] });
  });

  it('reports a calculation that reads itself', () => {
    expect(orderCalculations([{ index: 0, inputs: [0] }])).toEqual({ ok: false, cycles: [[0]] });
  });
});

describe('dependentsOf', () => {
  it('lists direct and indirect readers of each datapoint in calculation order', () => {
    const nodes = [
      { index: 1, inputs: [2] },
      { index: 2, inputs: [0] },
      { index: 3, inputs: [0, 4] },
    ];
    const order = [2, 1, 3];
    expect(dependentsOf(nodes, order, 5)).toEqual([[2, 1, 3], [], [1], [], [3]]);
  });
});
