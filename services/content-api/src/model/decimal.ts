/**
 * A decimal number as the wire carries it: `value / 10^decimalDigits`. Never a float: money and
 * quantities stay exact integers end to end.
 */
export interface Decimal {
  readonly value: number;
  readonly decimalDigits: number;
}

/** Builds a decimal from its integer parts; throws RangeError for non-integers or unsafe values. */
export function decimal(value: number, decimalDigits = 0): Decimal {
  if (!Number.isSafeInteger(value) || !Number.isSafeInteger(decimalDigits)) {
    throw new RangeError(`decimal parts must be safe integers, got ${value}e-${decimalDigits}`);
  }
  return { value, decimalDigits };
}

/** Parses a plain decimal string such as `"12.50"`, `"-3"` or `"0.001"`; undefined when not one. */
export function parseDecimalString(text: string): Decimal | undefined {
  // `/^(-?)(\d+)(?:\.(\d+))?$/` read by hand (every price of an import goes through here): the digits
  // accumulate exactly while the value is a safe integer, and a larger one is refused either way.
  const s = text.trim();
  const negative = s.charCodeAt(0) === 45; /* - */
  let i = negative ? 1 : 0;
  let value = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      digits += 1;
    } else if (c === 46 /* . */ && fraction === -1 && digits > 0) {
      fraction = digits;
    } else return undefined;
  }
  if (digits === 0 || fraction === digits || !Number.isSafeInteger(value)) return undefined;
  return { value: negative ? -value : value, decimalDigits: fraction === -1 ? 0 : digits - fraction };
}

/** The exact decimal string of `d` (`{value: 1250, decimalDigits: 2}` -> `"12.50"`). */
export function formatDecimal(d: Decimal): string {
  const negative = d.value < 0;
  let digits = String(Math.abs(d.value));
  if (d.decimalDigits <= 0) return (negative ? '-' : '') + digits + '0'.repeat(-d.decimalDigits);
  digits = digits.padStart(d.decimalDigits + 1, '0');
  const cut = digits.length - d.decimalDigits;
  return `${negative ? '-' : ''}${digits.slice(0, cut)}.${digits.slice(cut)}`;
}

/** Number of fraction digits every stored price is scaled to for range filters and sorting. */
export const SCALED_DIGITS = 6;

/**
 * `d` as an integer count of 10^-6 units (rounded toward negative infinity), for indexed
 * comparisons. Exact for every decimal with at most six fraction digits.
 */
export function toScaled(d: Decimal): bigint {
  const shift = SCALED_DIGITS - d.decimalDigits;
  if (shift >= 0) return BigInt(d.value) * 10n ** BigInt(shift);
  const divisor = 10n ** BigInt(-shift);
  const v = BigInt(d.value);
  const q = v / divisor;
  return v < 0n && q * divisor !== v ? q - 1n : q;
}

/** `toScaled(d)` as a number; exact while the result is a safe integer (checked on the quick path). */
export function toScaledNumber(d: Decimal): number {
  const shift = SCALED_DIGITS - d.decimalDigits;
  if (shift >= 0 && shift <= 15) {
    // Integers whose exact product is a safe integer multiply exactly in floating point.
    const scaled = d.value * 10 ** shift;
    if (Number.isSafeInteger(scaled)) return scaled;
  }
  return Number(toScaled(d));
}

/** `a + b`, exact, at the larger number of digits. */
export function addDecimals(a: Decimal, b: Decimal): Decimal {
  const digits = Math.max(a.decimalDigits, b.decimalDigits);
  const sum =
    BigInt(a.value) * 10n ** BigInt(digits - a.decimalDigits) +
    BigInt(b.value) * 10n ** BigInt(digits - b.decimalDigits);
  return fromBig(sum, digits);
}

/**
 * `d * multiplier / divisor` rounded half up to `d`'s digits (two more when the division is not
 * exact), for prices of several units.
 */
export function scaleDecimal(d: Decimal, multiplier: number, divisor = 1): Decimal {
  if (divisor <= 0) throw new RangeError('divisor must be positive');
  const quick = d.value * multiplier;
  if (Number.isSafeInteger(quick) && quick % divisor === 0)
    return { value: quick / divisor, decimalDigits: d.decimalDigits };
  const product = BigInt(d.value) * BigInt(multiplier);
  if (product % BigInt(divisor) === 0n) return fromBig(product / BigInt(divisor), d.decimalDigits);
  const widened = product * 100n;
  const div = BigInt(divisor);
  const q = (widened * 2n + (widened >= 0n ? div : -div)) / (2n * div);
  return fromBig(q, d.decimalDigits + 2);
}

function fromBig(value: bigint, digits: number): Decimal {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError('decimal overflow');
  return { value: n, decimalDigits: digits };
}
