import { isObject } from '@triad/common';
import type { ArticlePriceChange } from './article.js';
import { parseArticleRecord, type RecordViolation } from './parse-article-record.js';

/** A checked price record: the article it names and its new prices, or every violation. */
export type ParsedPriceRecord =
  | { readonly ok: true; readonly articleId: string; readonly prices: ArticlePriceChange }
  | { readonly ok: false; readonly violations: readonly RecordViolation[] };

/** The members a price record need not have, filled in so `parseArticleRecord` checks only the price members. */
const NOT_PRICES = {
  description: '-',
  descriptions: [{ lang: 'de', value: '-' }],
  orderDetails: { orderUnit: 'C62', minimumOrderQuantity: 1, orderQuantityInterval: 1, priceQuantity: 1 },
};
const ANY_CURRENCY = 'EUR';
const ANY_TAX = { value: 0, decimalDigits: 0 };

/**
 * Checks a record of a price update (BMEcat `T_UPDATE_PRICES`): `supplierArticleId` and
 * `blockPrices` are required and checked as in a whole article record (`parseArticleRecord`), as
 * are `currency`, `tax` and `priceConditions` when given. Descriptions, units and the rest are
 * neither needed nor looked at. The change keeps the stored currency and tax when the record has
 * none, and replaces the price conditions (none when the record has none).
 */
export function parsePriceRecord(record: unknown, shopId: string): ParsedPriceRecord {
  if (!isObject(record)) return { ok: false, violations: [{ path: '', message: 'must be a JSON object' }] };
  const parsed = parseArticleRecord(
    {
      ...NOT_PRICES,
      supplierArticleId: record.supplierArticleId,
      currency: record.currency ?? ANY_CURRENCY,
      tax: record.tax ?? ANY_TAX,
      blockPrices: record.blockPrices,
      priceConditions: record.priceConditions,
    },
    shopId,
  );
  if (!parsed.ok) return parsed;
  const { article } = parsed;
  return {
    ok: true,
    articleId: article.id,
    prices: {
      blockPrices: article.blockPrices,
      ...(record.currency !== undefined ? { currency: article.currency } : {}),
      ...(record.tax !== undefined ? { tax: article.tax } : {}),
      priceConditions: article.priceConditions,
    },
  };
}
