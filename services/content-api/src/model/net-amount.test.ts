import { describe, expect, it } from 'vitest';
import { netAmount } from './net-amount.js';

describe('netAmount', () => {
  it('keeps a net amount without factor as it is', () => {
    expect(netAmount({ value: 1250, decimalDigits: 2 })).toEqual({ value: 1250, decimalDigits: 2 });
  });

  it('multiplies by PRICE_FACTOR exactly, the digits adding up', () => {
    expect(netAmount({ value: 1000, decimalDigits: 2 }, { value: 85, decimalDigits: 2 })).toEqual({
      value: 85000,
      decimalDigits: 4,
    });
  });

  it('converts a gross amount to net at its digits when the division is exact', () => {
    expect(netAmount({ value: 11900, decimalDigits: 2 }, undefined, { value: 19, decimalDigits: 2 })).toEqual({
      value: 10000,
      decimalDigits: 2,
    });
  });

  it('rounds an inexact conversion half up to two more digits', () => {
    // 9.99 / 1.19 = 8.394957...
    expect(netAmount({ value: 999, decimalDigits: 2 }, undefined, { value: 19, decimalDigits: 2 })).toEqual({
      value: 83950,
      decimalDigits: 4,
    });
    // 10 / 1.07 = 9.345794...
    expect(netAmount({ value: 10, decimalDigits: 0 }, undefined, { value: 7, decimalDigits: 2 })).toEqual({
      value: 935,
      decimalDigits: 2,
    });
  });

  it('applies the factor before converting', () => {
    // 238.00 x 0.5 / 1.19 = 100.00
    expect(
      netAmount({ value: 23800, decimalDigits: 2 }, { value: 5, decimalDigits: 1 }, { value: 19, decimalDigits: 2 }),
    ).toEqual({ value: 100000, decimalDigits: 3 });
  });
});
