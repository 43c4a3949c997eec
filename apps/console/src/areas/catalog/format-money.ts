import type { Decimal, Money } from './catalog-wire.js';

/**
 * A Decimal as a plain number string with exactly its own digits after the point, computed on
 * integers so `{value: 13605, decimalDigits: 2}` is always `136.05` (never a float artefact).
 * Negative `decimalDigits` multiply (`{12, -2}` is `1200`).
 */
export function formatDecimal(decimal: Decimal): string {
  const { value, decimalDigits } = decimal;
  if (decimalDigits <= 0) return String(BigInt(value) * 10n ** BigInt(-decimalDigits));
  const negative = value < 0;
  const digits = String(Math.abs(value)).padStart(decimalDigits + 1, '0');
  const whole = digits.slice(0, -decimalDigits);
  const fraction = digits.slice(-decimalDigits);
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** A Decimal as a JavaScript number (for display and arithmetic that tolerates rounding). */
export function decimalToNumber(decimal: Decimal): number {
  return Number(formatDecimal(decimal));
}

/**
 * Money as the reader expects it, `136.05 EUR`, with two decimals at least (amounts with more
 * keep them) and thousands grouped by `locale` (default: the browser's).
 */
export function formatMoney(money: Money, locale?: string): string {
  const digits = Math.max(2, money.amount.decimalDigits);
  const number = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${number.format(decimalToNumber(money.amount))} ${money.currency}`;
}

/** A fraction Decimal (`{19, 2}`) as a percentage, `19 %`. */
export function formatPercent(fraction: Decimal, locale?: string): string {
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 4 });
  return `${number.format(decimalToNumber(fraction) * 100)} %`;
}

/** A number typed by a person (`12.5`, `12,50`) as a Decimal with its own digits; undefined when it is not one. */
export function parseDecimal(text: string): Decimal | undefined {
  const match = /^\s*(-?)(\d{1,15})(?:[.,](\d{1,6}))?\s*$/.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '0', fraction = ''] = match;
  return { value: Number(`${sign}${whole}${fraction}`), decimalDigits: fraction.length };
}
