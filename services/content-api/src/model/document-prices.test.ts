import { describe, expect, it } from 'vitest';
import { generateCatalog } from '../demo/generate-catalog.js';
import type { Article } from './article.js';
import { encodeArticleDocument } from './article-document.js';
import {
  documentPricesText,
  withDocumentPrices,
  withDocumentPricesText,
  withPricesText,
  type DocumentPrices,
} from './document-prices.js';

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

  it('gives the new price members alone where nothing else of the document changes', () => {
    const a = articles.find((x) => x.specialTaxes.length > 0) ?? articles[0]!;
    const territories = ['AT'];
    const tail = { statuses: [{ type: 'x', value: 'y "q" \\ [,]' }], countryOfOrigin: 'CN' };
    const blockPrices = [{ lowerBound: 1, amount: { value: 777, decimalDigits: 2 } }];
    const same = { validUntil: '2031-01-01', territories };
    const outcomes: boolean[] = [];
    for (const article of [
      a,
      { ...a, ...tail },
      { ...a, priceConditions: same },
      { ...a, ...tail, priceConditions: same },
    ])
      for (const prices of [
        { blockPrices },
        { blockPrices, currency: 'CZK', tax: { value: 21, decimalDigits: 2 }, specialTaxes: [] },
        { blockPrices, priceConditions: { validUntil: '2031-01-01', territories } },
        { blockPrices, priceConditions: { validFrom: '2030-01-01', territories } },
        { blockPrices, priceConditions: undefined },
      ] as DocumentPrices[]) {
        const document = encodeArticleDocument(article);
        const whole = withDocumentPrices(document, prices)!;
        const members = withDocumentPricesText(document, prices);
        outcomes.push(members !== undefined);
        if (!members) {
          // Something beyond the price members changed.
          expect(withPricesText(document, documentPricesText(whole.document)!)).not.toBe(whole.document);
          continue;
        }
        expect(withPricesText(document, members.prices)).toBe(whole.document);
        expect(withPricesText(document, members.prices)).toBe(encodeArticleDocument({ ...article, ...prices }));
        expect(documentPricesText(whole.document)).toBe(members.prices);
        expect(members.priced).toEqual(whole.priced);
      }
    expect(outcomes).toContain(true);
    expect(outcomes).toContain(false);
    expect(withPricesText(encodeArticleDocument(a), null)).toBe(encodeArticleDocument(a));
    expect(() => withPricesText(JSON.stringify(a), '"EUR"')).toThrow();
  });
});
