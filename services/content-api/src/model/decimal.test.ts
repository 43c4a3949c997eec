import { describe, expect, it } from 'vitest';
import { addDecimals, formatDecimal, parseDecimalString, scaleDecimal, toScaled, toScaledNumber } from './decimal.js';

describe('decimal', () => {
  it('parses and formats exact decimal strings', () => {
    expect(parseDecimalString('12.50')).toEqual({ value: 1250, decimalDigits: 2 });
    expect(parseDecimalString('-0.001')).toEqual({ value: -1, decimalDigits: 3 });
    expect(parseDecimalString('1e3')).toBeUndefined();
    expect(formatDecimal({ value: 1250, decimalDigits: 2 })).toBe('12.50');
    expect(formatDecimal({ value: -5, decimalDigits: 3 })).toBe('-0.005');
    expect(formatDecimal({ value: 12, decimalDigits: -3 })).toBe('12000');
  });

  it('scales to millionths, flooring extra digits and handling negative digit counts', () => {
    expect(toScaled({ value: 1250, decimalDigits: 2 })).toBe(12_500_000n);
    expect(toScaled({ value: 12, decimalDigits: -3 })).toBe(12_000_000_000n);
    expect(toScaled({ value: 1_234_567_9, decimalDigits: 7 })).toBe(1_234_567n);
    expect(toScaled({ value: -15, decimalDigits: 7 })).toBe(-2n);
  });

  it('adds and multiplies exactly, adding two digits when a division is not exact', () => {
    expect(addDecimals({ value: 1, decimalDigits: 1 }, { value: 25, decimalDigits: 2 })).toEqual({
      value: 35,
      decimalDigits: 2,
    });
    expect(scaleDecimal({ value: 199, decimalDigits: 2 }, 3)).toEqual({ value: 597, decimalDigits: 2 });
    expect(scaleDecimal({ value: 100, decimalDigits: 2 }, 1, 3)).toEqual({ value: 3333, decimalDigits: 4 });
    expect(scaleDecimal({ value: 200, decimalDigits: 2 }, 1, 3)).toEqual({ value: 6667, decimalDigits: 4 });
  });

  it('gives toScaled as a number on the quick path and for values beyond it', () => {
    const cases = [
      { value: 1250, decimalDigits: 2 },
      { value: -15, decimalDigits: 7 },
      { value: 12, decimalDigits: -3 },
      { value: Number.MAX_SAFE_INTEGER, decimalDigits: 6 },
      { value: 9_007_199_254, decimalDigits: 0 },
      { value: 3, decimalDigits: -12 },
    ];
    for (const d of cases) expect(toScaledNumber(d)).toBe(Number(toScaled(d)));
    expect(scaleDecimal({ value: -600, decimalDigits: 2 }, 1, 3)).toEqual({ value: -200, decimalDigits: 2 });
    expect(scaleDecimal({ value: Number.MAX_SAFE_INTEGER, decimalDigits: 0 }, 2, 2)).toEqual({
      value: Number.MAX_SAFE_INTEGER,
      decimalDigits: 0,
    });
  });
});
