import { describe, expect, it } from 'vitest';
import { formatDecimal, formatMoney, formatPercent, parseDecimal } from './format-money.js';

describe('formatDecimal', () => {
  it.each([
    [{ value: 13605, decimalDigits: 2 }, '136.05'],
    [{ value: 5, decimalDigits: 2 }, '0.05'],
    [{ value: -5, decimalDigits: 3 }, '-0.005'],
    [{ value: 0, decimalDigits: 0 }, '0'],
    [{ value: 12, decimalDigits: -2 }, '1200'],
  ])('writes %j as %s using integers only', (decimal, text) => {
    expect(formatDecimal(decimal)).toBe(text);
  });
});

describe('formatMoney', () => {
  it('shows two decimals and the currency code', () => {
    expect(formatMoney({ amount: { value: 0, decimalDigits: 0 }, currency: 'EUR' }, 'en')).toBe('0.00 EUR');
    expect(formatMoney({ amount: { value: 123456, decimalDigits: 2 }, currency: 'CZK' }, 'en')).toBe('1,234.56 CZK');
  });

  it('keeps more decimals when the amount has them', () => {
    expect(formatMoney({ amount: { value: 12345, decimalDigits: 3 }, currency: 'EUR' }, 'en')).toBe('12.345 EUR');
  });
});

describe('formatPercent', () => {
  it('reads a fraction as a percentage', () => {
    expect(formatPercent({ value: 19, decimalDigits: 2 }, 'en')).toBe('19 %');
    expect(formatPercent({ value: 75, decimalDigits: 3 }, 'en')).toBe('7.5 %');
  });
});

describe('parseDecimal', () => {
  it('keeps the digits typed, with a point or a comma', () => {
    expect(parseDecimal('4.95')).toEqual({ value: 495, decimalDigits: 2 });
    expect(parseDecimal(' 12,5 ')).toEqual({ value: 125, decimalDigits: 1 });
    expect(parseDecimal('50')).toEqual({ value: 50, decimalDigits: 0 });
  });

  it('refuses text that is not a number', () => {
    expect(parseDecimal('')).toBeUndefined();
    expect(parseDecimal('1e5')).toBeUndefined();
    expect(parseDecimal('abc')).toBeUndefined();
  });
});
