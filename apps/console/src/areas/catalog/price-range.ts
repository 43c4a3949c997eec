import type { Decimal } from './catalog-wire.js';

const FILTER = 'pricePerMinimumOrderQuantity';

/**
 * `fq` with its price filter (`DecimalRangeFilter` on the price per minimum order quantity)
 * replaced by one from `lower` to `upper` (both inclusive; either may be absent), or removed when
 * both are. The other filters keep their order; several become the operands of one `And`, as the
 * API's facet links build them. Text that is not a filter query is replaced.
 */
export function withPriceRange(fq: string, lower: Decimal | undefined, upper: Decimal | undefined): string {
  const others = operands(fq).filter((operand) => !isPriceFilter(operand));
  const range =
    lower === undefined && upper === undefined
      ? []
      : [
          {
            type: 'DecimalRangeFilter',
            filterName: FILTER,
            ...(lower === undefined ? {} : { lowerBound: lower }),
            ...(upper === undefined ? {} : { upperBound: upper }),
          },
        ];
  const all = [...others, ...range];
  if (all.length === 0) return '';
  return JSON.stringify({ expression: all.length === 1 ? all[0] : { type: 'And', operands: all } });
}

/** The bounds of `fq`'s price filter, if it has one at the top level. */
export function priceRangeOf(fq: string): { lower?: Decimal; upper?: Decimal } {
  const found = operands(fq).find(isPriceFilter);
  if (found === undefined) return {};
  const { lowerBound, upperBound } = found as { lowerBound?: Decimal; upperBound?: Decimal };
  return { ...(lowerBound ? { lower: lowerBound } : {}), ...(upperBound ? { upper: upperBound } : {}) };
}

function operands(fq: string): unknown[] {
  if (fq === '') return [];
  try {
    const parsed = JSON.parse(fq) as { expression?: { type?: unknown; operands?: unknown } };
    const expression = parsed.expression;
    if (typeof expression !== 'object' || expression === null) return [];
    return expression.type === 'And' && Array.isArray(expression.operands) ? expression.operands : [expression];
  } catch {
    return [];
  }
}

function isPriceFilter(operand: unknown): boolean {
  if (typeof operand !== 'object' || operand === null) return false;
  const { type, filterName } = operand as { type?: unknown; filterName?: unknown };
  return type === 'DecimalRangeFilter' && filterName === FILTER;
}
