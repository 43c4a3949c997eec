import { describe, expect, it } from 'vitest';
import { ProblemError } from '@triad/service-kit';
import { MAX_FILTER_DEPTH, parseFilter } from './parse-filter.js';

function errorsOf(text: string): unknown {
  try {
    parseFilter(text);
  } catch (error) {
    if (error instanceof ProblemError) return error.extensions.errors;
    throw error;
  }
  throw new Error('expected a problem');
}

const nest = (depth: number): unknown =>
  depth === 1
    ? { type: 'ExactStringMatchFilter', filterName: 'manufacturerName', value: '3M' }
    : { type: 'Or', operands: [nest(depth - 1)] };

describe('parseFilter', () => {
  it('parses every expression type with decimal bounds', () => {
    const expression = {
      type: 'And',
      operands: [
        {
          type: 'DecimalRangeFilter',
          filterName: 'pricePerMinimumOrderQuantity',
          lowerBound: { value: 5 },
          upperBound: { value: 1999, decimalDigits: 2 },
        },
        { type: 'ExactReferenceFeatureMatchFilter', filterName: 'UNSPSC-9', group: '44121704' },
      ],
    };
    expect(parseFilter(JSON.stringify({ expression }))).toEqual({
      type: 'And',
      operands: [
        {
          type: 'DecimalRangeFilter',
          filterName: 'pricePerMinimumOrderQuantity',
          lowerBound: { value: 5, decimalDigits: 0 },
          upperBound: { value: 1999, decimalDigits: 2 },
        },
        { type: 'ExactReferenceFeatureMatchFilter', filterName: 'UNSPSC-9', group: '44121704' },
      ],
    });
  });

  it('reports non-JSON as a TYPE error at the parameter root', () => {
    expect(errorsOf('{nope')).toEqual([expect.objectContaining({ path: '#/fq', code: 'TYPE' })]);
  });

  it('reports every violation with its JSON pointer', () => {
    const expression = {
      type: 'And',
      operands: [
        { type: 'ExactStringMatchFilter', filterName: 'colour', value: 3 },
        { type: 'DecimalRangeFilter', filterName: 'pricePerMinimumOrderQuantity', lowerBound: { value: 1.5 } },
      ],
    };
    expect(errorsOf(JSON.stringify({ expression }))).toEqual([
      expect.objectContaining({ path: '#/fq/expression/operands/0/filterName', code: 'UNKNOWN' }),
      expect.objectContaining({ path: '#/fq/expression/operands/0/value', code: 'TYPE' }),
      expect.objectContaining({ path: '#/fq/expression/operands/1/lowerBound/value', code: 'TYPE' }),
    ]);
  });

  it(`accepts nesting of ${MAX_FILTER_DEPTH} levels and refuses one more with MAXIMUM`, () => {
    expect(() => parseFilter(JSON.stringify({ expression: nest(MAX_FILTER_DEPTH + 1) }))).not.toThrow();
    const errors = errorsOf(JSON.stringify({ expression: nest(MAX_FILTER_DEPTH + 2) })) as {
      code: string;
      limit: number;
    }[];
    expect(errors[0]).toMatchObject({ code: 'MAXIMUM', limit: MAX_FILTER_DEPTH });
  });
});
