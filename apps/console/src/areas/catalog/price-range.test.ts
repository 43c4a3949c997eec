import { describe, expect, it } from 'vitest';
import { priceRangeOf, withPriceRange } from './price-range.js';

const maker = { type: 'ExactStringMatchFilter', filterName: 'manufacturerName', value: 'Bosch' };
const ten = { value: 1000, decimalDigits: 2 };
const fifty = { value: 50, decimalDigits: 0 };

describe('withPriceRange', () => {
  it('adds the range as the only filter', () => {
    expect(JSON.parse(withPriceRange('', ten, undefined))).toEqual({
      expression: { type: 'DecimalRangeFilter', filterName: 'pricePerMinimumOrderQuantity', lowerBound: ten },
    });
  });

  it('joins the other filters with And and replaces an earlier range', () => {
    const first = withPriceRange(JSON.stringify({ expression: maker }), ten, undefined);
    const second = withPriceRange(first, undefined, fifty);
    expect(JSON.parse(second)).toEqual({
      expression: {
        type: 'And',
        operands: [
          maker,
          { type: 'DecimalRangeFilter', filterName: 'pricePerMinimumOrderQuantity', upperBound: fifty },
        ],
      },
    });
    expect(priceRangeOf(second)).toEqual({ upper: fifty });
  });

  it('removes the range when both bounds are empty', () => {
    const ranged = withPriceRange(JSON.stringify({ expression: maker }), ten, fifty);
    expect(priceRangeOf(ranged)).toEqual({ lower: ten, upper: fifty });
    expect(JSON.parse(withPriceRange(ranged, undefined, undefined))).toEqual({ expression: maker });
    expect(withPriceRange(withPriceRange('', ten, undefined), undefined, undefined)).toBe('');
  });
});
