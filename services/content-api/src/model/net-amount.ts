import type { Decimal } from './decimal.js';

/**
 * The net amount of a catalog price: `amount × factor` (BMEcat `PRICE_FACTOR`, exact: the digits
 * add up), and for a gross price divided by `1 + grossTax`. The division is kept at the amount's
 * digits when exact, else rounded half away from zero to two more digits (`9.99` gross at 19 %
 * gives `8.3950`, `119.00` gives `100.00`), so re-adding the tax gives the gross amount back to
 * its cent. Never a float.
 *
 * @throws RangeError when the result does not fit a safe integer.
 */
export function netAmount(amount: Decimal, factor?: Decimal, grossTax?: Decimal): Decimal {
  let value = BigInt(amount.value);
  let digits = amount.decimalDigits;
  if (factor) {
    value *= BigInt(factor.value);
    digits += factor.decimalDigits;
  }
  if (grossTax) {
    const scale = 10n ** BigInt(grossTax.decimalDigits);
    // value / 10^digits / (1 + tax) = value * scale / (scale + tax) / 10^digits
    const numerator = value * scale;
    const divisor = scale + BigInt(grossTax.value);
    if (divisor <= 0n) throw new RangeError('a tax of -100 % or less has no net amount');
    if (numerator % divisor === 0n) value = numerator / divisor;
    else {
      const widened = numerator * 100n;
      value = (widened * 2n + (widened >= 0n ? divisor : -divisor)) / (2n * divisor);
      digits += 2;
    }
  }
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError('net amount overflow');
  return { value: n, decimalDigits: digits };
}
