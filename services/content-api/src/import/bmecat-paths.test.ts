import { describe, expect, it } from 'vitest';
import { bmecatViolation } from './bmecat-paths.js';

describe('bmecatViolation', () => {
  it('names the element the supplier wrote, in 1.2 and 2005 names, with a hint', () => {
    const missingUnit = { path: '/orderDetails/orderUnit', message: 'unit undefined is neither one of the codes' };
    expect(bmecatViolation(missingUnit, 'ARTICLE')).toEqual({
      path: 'ARTICLE_ORDER_DETAILS/ORDER_UNIT',
      message: expect.stringMatching(/^is missing or empty: give a UN\/ECE Recommendation 20 unit code/) as string,
    });
    expect(bmecatViolation(missingUnit, 'PRODUCT').path).toBe('PRODUCT_ORDER_DETAILS/ORDER_UNIT');
    expect(bmecatViolation({ path: '/currency', message: 'must be a non-empty string' }, 'ARTICLE')).toEqual({
      path: 'ARTICLE_PRICE_DETAILS/ARTICLE_PRICE/PRICE_CURRENCY',
      message: expect.stringContaining('is missing or empty: give an ISO 4217 code') as string,
    });
    expect(
      bmecatViolation({ path: '/classifications/3/groupId', message: 'must be a non-empty string' }, 'PRODUCT').path,
    ).toBe('PRODUCT_FEATURES/REFERENCE_FEATURE_GROUP_ID');
  });

  it('keeps a message that says more than a missing value, and paths that name elements already', () => {
    expect(bmecatViolation({ path: '/blockPrices/1/lowerBound', message: 'repeats 10' }, 'ARTICLE')).toEqual({
      path: 'ARTICLE_PRICE_DETAILS/ARTICLE_PRICE/LOWER_BOUND',
      message: expect.stringMatching(/^repeats 10: give a whole number/) as string,
    });
    const limit = {
      path: '/ARTICLE/ARTICLE_FEATURES/FEATURE',
      message: 'FEATURE: the item has more than 20000 elements',
    };
    expect(bmecatViolation(limit, 'ARTICLE')).toEqual({ ...limit, path: 'ARTICLE/ARTICLE_FEATURES/FEATURE' });
    const whole = { path: '', message: 'has no price: give an ARTICLE_PRICE in ARTICLE_PRICE_DETAILS' };
    expect(bmecatViolation(whole, 'ARTICLE')).toBe(whole);
    const unknown = { path: '/somethingNew', message: 'is odd' };
    expect(bmecatViolation(unknown, 'ARTICLE')).toBe(unknown);
  });
});
