import { describe, expect, it } from 'vitest';
import { activeFilters } from './active-filters.js';

const maker = { type: 'ExactStringMatchFilter', filterName: 'manufacturerName', value: 'Bosch' };
const group = { type: 'ExactReferenceFeatureMatchFilter', filterName: 'UNSPSC-7', group: '' };
const price = {
  type: 'DecimalRangeFilter',
  filterName: 'pricePerMinimumOrderQuantity',
  upperBound: { value: 5000, decimalDigits: 2 },
};

describe('activeFilters', () => {
  it('lists nothing without fq', () => {
    expect(activeFilters('')).toEqual([]);
  });

  it('names a single filter and removes it to no fq', () => {
    expect(activeFilters(JSON.stringify({ expression: maker }))).toEqual([
      { label: 'Manufacturer: Bosch', without: '' },
    ]);
  });

  it('lists each operand of a top-level And, each removable on its own', () => {
    const filters = activeFilters(JSON.stringify({ expression: { type: 'And', operands: [maker, group, price] } }));
    expect(filters.map((f) => f.label)).toEqual(['Manufacturer: Bosch', 'UNSPSC 7: (none)', 'Price: … – 50.00']);
    expect(JSON.parse(filters[1]?.without ?? '')).toEqual({ expression: { type: 'And', operands: [maker, price] } });
  });

  it('unwraps an And left with one operand', () => {
    const filters = activeFilters(JSON.stringify({ expression: { type: 'And', operands: [maker, group] } }));
    expect(JSON.parse(filters[0]?.without ?? '')).toEqual({ expression: group });
  });

  it('names a shop filter by the shop name when known', () => {
    const shop = { type: 'ExactStringMatchFilter', filterName: 'businessShopId', value: 'labtools' };
    const names = new Map([['labtools', 'LabTools Europe B.V.']]);
    expect(activeFilters(JSON.stringify({ expression: shop }), names)[0]?.label).toBe('Shop: LabTools Europe B.V.');
  });

  it('keeps text that is not a filter query removable', () => {
    expect(activeFilters('{oops')).toEqual([{ label: '{oops', without: '' }]);
  });
});
