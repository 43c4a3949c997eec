import { describe, expect, it } from 'vitest';
import { priceMembersOf, recordOfArticle, withPriceMembers } from './dated-price-record.js';
import { parseArticleRecord } from './parse-article-record.js';
import { anyShopTerms } from './shop-price-terms.js';

const d = (value: number, decimalDigits = 2) => ({ value, decimalDigits });
const ladder = (amount: number, tax?: number, validFrom?: string) => ({
  element: 'ARTICLE_PRICE',
  priceType: 'net_list',
  currency: 'EUR',
  territories: [],
  ...(validFrom !== undefined ? { validFrom } : {}),
  prices: [{ lowerBound: 1, amount: d(amount), ...(tax !== undefined ? { tax: d(tax) } : {}) }],
});
const record = {
  supplierArticleId: 'A-1',
  description: 'Terminal',
  descriptions: [{ lang: 'de', value: 'Klemme' }],
  orderDetails: { orderUnit: 'C62', minimumOrderQuantity: 1, orderQuantityInterval: 1, priceQuantity: 1 },
  priceOffers: [ladder(100, 19)],
};
const terms = anyShopTerms('s', new Date('2030-01-01T12:00:00Z'));

describe('dated price records', () => {
  it('keeps only the price members of an update', () => {
    expect(priceMembersOf({ supplierArticleId: 'A-1', priceOffers: [], description: 'x' })).toEqual({
      priceOffers: [],
    });
  });

  it('replaces the ladders of a record as read, and its own prices by ladders', () => {
    const merged = withPriceMembers(record, { priceOffers: [ladder(150, 19)] });
    expect(merged).toMatchObject({ supplierArticleId: 'A-1', priceOffers: [ladder(150, 19)] });
    const own = withPriceMembers(
      { ...record, priceOffers: undefined, currency: 'EUR', tax: d(19) },
      {
        priceOffers: [ladder(150, 19)],
      },
    );
    expect(own).not.toHaveProperty('tax');
  });

  it('makes a stored article a record again, whose ladders without TAX take its tax when asked', () => {
    const parsed = parseArticleRecord(record, terms);
    if (!parsed.ok) throw new Error('the record is refused');
    const again = recordOfArticle(parsed.article);
    expect(again).not.toHaveProperty('id');
    expect(again).toMatchObject({ currency: 'EUR', tax: d(19) });
    const merged = withPriceMembers(again, { priceOffers: [ladder(150, undefined, '2030-01-01')] }, true);
    const repriced = parseArticleRecord(merged, terms);
    expect(repriced.ok && repriced.article.blockPrices).toEqual([{ lowerBound: 1, amount: d(150) }]);
    expect(repriced.ok && repriced.article.tax).toEqual(d(19));
    // Without keepTax the ladder has no tax, and no shop default: not usable.
    expect(parseArticleRecord(withPriceMembers(again, { priceOffers: [ladder(150)] }), terms).ok).toBe(false);
  });
});
