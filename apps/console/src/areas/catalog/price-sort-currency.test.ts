import { describe, expect, it } from 'vitest';
import { EMPTY_SEARCH } from './catalog-search.js';
import { priceSortCurrency } from './price-sort-currency.js';

const SHOPS = [
  { id: 'a', currency: 'EUR' },
  { id: 'b', currency: 'CZK' },
  { id: 'c', currency: 'EUR' },
];

describe('the currency a price sort uses', () => {
  it('picks the currency of most shops when the search names none', () => {
    expect(priceSortCurrency({ ...EMPTY_SEARCH, sort: '+price' }, SHOPS)).toBe('EUR');
    expect(priceSortCurrency({ ...EMPTY_SEARCH, sort: '-price' }, SHOPS)).toBe('EUR');
  });

  it("picks the chosen shops' currency over the others", () => {
    expect(priceSortCurrency({ ...EMPTY_SEARCH, sort: '+price', businessShopId: ['b'] }, SHOPS)).toBe('CZK');
  });

  it('takes the alphabetically first currency on a tie', () => {
    expect(priceSortCurrency({ ...EMPTY_SEARCH, sort: '+price' }, SHOPS.slice(0, 2))).toBe('CZK');
  });

  it('picks nothing when the search names a currency, sorts otherwise, or no shop is known', () => {
    expect(priceSortCurrency({ ...EMPTY_SEARCH, sort: '+price', currency: 'CZK' }, SHOPS)).toBeUndefined();
    expect(priceSortCurrency({ ...EMPTY_SEARCH, sort: '+description' }, SHOPS)).toBeUndefined();
    expect(priceSortCurrency({ ...EMPTY_SEARCH, sort: '+price' }, [])).toBeUndefined();
  });
});
