import { isObject } from '@triad/common';
import type { ArticlePriceChange } from './article.js';
import { parseArticleRecord, type ParsedRecord } from './parse-article-record.js';
import type { ShopPriceTerms } from './shop-price-terms.js';

/**
 * Checks a record kept not searchable again (`WaitingRecord.record`, stored as JSON in
 * `document`) by the shop's terms at `terms.now`: an article when a price of it is valid now,
 * else waiting again (maybe until a later ladder) or refused. With `prices` (a price change, as
 * `T_UPDATE_PRICES` gives), the record's own prices are replaced by them first; a change without
 * a tax takes the shop's default tax.
 */
export function recheckWaitingRecord(
  document: string,
  terms: ShopPriceTerms,
  prices?: ArticlePriceChange,
): ParsedRecord {
  let record: unknown;
  try {
    record = JSON.parse(document);
  } catch {
    return { ok: false, violations: [{ path: '', message: 'the stored record is no JSON' }] };
  }
  if (!isObject(record) || prices === undefined) return parseArticleRecord(record, terms);
  const { priceOffers: _offers, currency, tax: _tax, blockPrices: _blocks, priceConditions: _c, ...rest } = record;
  return parseArticleRecord(
    {
      ...rest,
      currency: prices.currency ?? (typeof currency === 'string' ? currency : terms.currency),
      ...(prices.tax !== undefined ? { tax: prices.tax } : {}),
      blockPrices: prices.blockPrices,
      ...(prices.specialTaxes !== undefined ? { specialTaxes: prices.specialTaxes } : {}),
      ...(prices.priceConditions !== undefined ? { priceConditions: prices.priceConditions } : {}),
    },
    terms,
  );
}
