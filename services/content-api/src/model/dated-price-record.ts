import { isObject } from '@triad/common';
import type { Article } from './article.js';

/** The members of a record that hold its prices (BMEcat ladders, or a JSON Lines record's own). */
const PRICE_MEMBERS = ['priceOffers', 'currency', 'tax', 'blockPrices', 'specialTaxes', 'priceConditions'] as const;

/** The price members of a record as read (a price update's), the others left out. */
export function priceMembersOf(record: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const key of PRICE_MEMBERS) if (record[key] !== undefined) out[key] = record[key];
  return out;
}

/**
 * A stored article as a record to check again (`parseArticleRecord`), without its prices: used
 * when a price update with dates reaches an article whose record as read is not kept.
 */
export function recordOfArticle(article: Article): Readonly<Record<string, unknown>> {
  const {
    id: _id,
    shopId: _shopId,
    currency,
    tax,
    blockPrices: _blocks,
    priceConditions: _conditions,
    ...rest
  } = article;
  // The stored currency and tax stay for an update that gives none (as a price change keeps them).
  return { ...rest, currency, tax };
}

/**
 * `base` (a record as read, or `recordOfArticle`) with its prices replaced by `prices` (a price
 * update's members): ladders replace ladders and own prices; an update without `currency` or
 * `tax` keeps the base's. With `keepTax` (the shop has no default tax), ladders without any `TAX`
 * take the base's `tax`, as a price change keeps the stored tax.
 */
export function withPriceMembers(
  base: unknown,
  prices: Readonly<Record<string, unknown>>,
  keepTax = false,
): Readonly<Record<string, unknown>> | undefined {
  if (!isObject(base)) return undefined;
  const kept: Record<string, unknown> = { ...base };
  for (const key of PRICE_MEMBERS) delete kept[key];
  const offers = prices.priceOffers;
  if (offers !== undefined) {
    const tax = base.tax;
    if (!keepTax || tax === undefined || !Array.isArray(offers)) return { ...kept, ...prices };
    return { ...kept, ...prices, priceOffers: offers.map((offer: unknown) => withTax(offer, tax)) };
  }
  return {
    ...kept,
    ...(base.currency !== undefined ? { currency: base.currency } : {}),
    ...(base.tax !== undefined ? { tax: base.tax } : {}),
    ...prices,
  };
}

/** A ladder whose prices give no tax, with `tax` on each; others as they are. */
function withTax(offer: unknown, tax: unknown): unknown {
  if (!isObject(offer) || !Array.isArray(offer.prices)) return offer;
  const prices: unknown[] = offer.prices;
  if (prices.some((p) => isObject(p) && p.tax !== undefined)) return offer;
  return { ...offer, prices: prices.map((p) => (isObject(p) ? { ...p, tax } : p)) };
}
