import { describe, expect, it } from 'vitest';
import { generateCatalog } from '../demo/generate-catalog.js';
import type { Article } from './article.js';
import { encodeArticleDocument } from './article-document.js';
import { withDocumentPrices, type DocumentPrices } from './document-prices.js';

describe('document prices', () => {
  const articles = [...generateCatalog({ articles: 60, seed: 3 }).articles()];

  it('puts new prices into a document as encoding the changed article would, keeping the rest', () => {
    const a = articles.find((x) => x.specialTaxes.length > 0) ?? articles[0]!;
    const withTail: Article = { ...a, statuses: [{ type: 'x', value: 'y "q" \\ [,]' }], countryOfOrigin: 'CN' };
    const withConditions: Article = { ...a, priceConditions: { validUntil: '2031-01-01', territories: ['AT'] } };
    const blockPrices = [{ lowerBound: 1, amount: { value: 12345, decimalDigits: 3 } }];
    const conditions = { validFrom: '2030-01-01', territories: ['DE', 'CZ'] };
    const changes: DocumentPrices[] = [
      { blockPrices },
      { blockPrices, currency: 'CZK', tax: { value: 21, decimalDigits: 2 }, specialTaxes: [] },
      { blockPrices, priceConditions: conditions },
      { blockPrices, priceConditions: undefined },
    ];
    for (const article of [a, withTail, withConditions])
      for (const prices of changes) {
        const put = withDocumentPrices(encodeArticleDocument(article), prices)!;
        const expected: Article = { ...article, ...prices };
        expect(put.document).toBe(encodeArticleDocument(expected));
        expect(put.priced).toEqual({
          blockPrices,
          specialTaxes: expected.specialTaxes,
          orderDetails: expect.objectContaining({
            minimumOrderQuantity: article.orderDetails.minimumOrderQuantity,
            priceQuantity: article.orderDetails.priceQuantity,
          }) as unknown,
        });
      }
    expect(withDocumentPrices(JSON.stringify(a), { blockPrices })).toBeUndefined();
  });
});
