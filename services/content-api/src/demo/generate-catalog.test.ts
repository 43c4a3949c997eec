import { describe, expect, it } from 'vitest';
import { isUnitCode } from '../model/unit-codes.js';
import { generateCatalog } from './generate-catalog.js';

describe('generateCatalog', () => {
  it('produces the same catalog for the same seed and a different one for another seed', () => {
    const a = [...generateCatalog({ articles: 30, seed: 3 }).articles()];
    const b = [...generateCatalog({ articles: 30, seed: 3 }).articles()];
    const c = [...generateCatalog({ articles: 30, seed: 4 }).articles()];
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it('spreads unique articles over several shops with several languages and valid unit codes', () => {
    const catalog = generateCatalog({ articles: 200 });
    const articles = [...catalog.articles()];
    expect(new Set(articles.map((x) => x.id)).size).toBe(200);
    expect(new Set(articles.map((x) => x.shopId))).toEqual(new Set(catalog.shops.map((s) => s.id)));
    expect(articles.every((x) => x.descriptions.length >= 2)).toBe(true);
    expect(
      articles.every(
        (x) =>
          isUnitCode(x.orderDetails.orderUnit) &&
          (x.orderDetails.contentUnit === undefined || isUnitCode(x.orderDetails.contentUnit)),
      ),
    ).toBe(true);
    expect(articles.some((x) => x.specialTaxes.length > 0)).toBe(true);
    expect(articles.every((x) => x.blockPrices.every((p) => Number.isInteger(p.amount.value)))).toBe(true);
  });
});
