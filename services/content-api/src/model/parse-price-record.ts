import { isObject } from '@triad/common';
import type { ArticlePriceChange } from './article.js';
import { priceMembersOf } from './dated-price-record.js';
import { parseArticleRecord, type RecordViolation } from './parse-article-record.js';
import { anyShopTerms, isGrossPriceType, type ShopPriceTerms } from './shop-price-terms.js';

/**
 * A checked price record: the article it names and its new prices (`prices`: valid now), or every
 * violation. `dated`: the record's price members as read, when its prices end or start at a date
 * (a ladder valid now ends, or one to come starts): the change is checked against the article's
 * record when applied, and takes effect at its dates (decision 0033). A record with no ladder
 * valid now but one to come has `dated` only.
 */
export type ParsedPriceRecord =
  | {
      readonly ok: true;
      readonly articleId: string;
      readonly prices: ArticlePriceChange;
      readonly dated?: Readonly<Record<string, unknown>>;
    }
  | { readonly ok: true; readonly articleId: string; readonly dated: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly violations: readonly RecordViolation[] };

/** The members a price record need not have, filled in so `parseArticleRecord` checks only the price members. */
const NOT_PRICES = {
  description: '-',
  descriptions: [{ lang: 'de', value: '-' }],
  orderDetails: { orderUnit: 'C62', minimumOrderQuantity: 1, orderQuantityInterval: 1, priceQuantity: 1 },
};
/** Stands for "keep the stored tax" while the record is checked. */
const KEEP_TAX = { value: 0, decimalDigits: 0 };

/**
 * Checks a record of a price update (BMEcat `T_UPDATE_PRICES`): `supplierArticleId` and
 * `blockPrices` (or a BMEcat item's `priceOffers`) are required and checked as in a whole article
 * record (`parseArticleRecord`, with the shop's terms when given: a price in another currency is
 * refused), as are `currency`, `tax` and `priceConditions` when given. Descriptions, units and the
 * rest are neither needed nor looked at. The change keeps the stored currency and tax when the
 * record has none (a gross price without a tax needs the shop's `defaultTax` to be made net), and
 * replaces the price conditions (none when the record has none).
 */
export function parsePriceRecord(record: unknown, shop: string | ShopPriceTerms): ParsedPriceRecord {
  if (!isObject(record)) return { ok: false, violations: [{ path: '', message: 'must be a JSON object' }] };
  const terms = typeof shop === 'string' ? anyShopTerms(shop) : shop;
  const offers = record.priceOffers !== undefined;
  const parsed = parseArticleRecord(
    {
      ...NOT_PRICES,
      supplierArticleId: record.supplierArticleId,
      ...(offers
        ? { priceOffers: record.priceOffers }
        : {
            currency: record.currency ?? terms.currency ?? 'EUR',
            tax: record.tax ?? KEEP_TAX,
            blockPrices: record.blockPrices,
            priceConditions: record.priceConditions,
          }),
    },
    // Without a TAX the stored tax stays: the record is checked as if it had one.
    { ...terms, defaultTax: terms.defaultTax ?? KEEP_TAX },
  );
  if (!parsed.ok) {
    // Ladders to come only: kept for the article, they take effect at their date.
    if (parsed.waiting?.searchableFrom === undefined || !offersOrConditions(record)) return parsed;
    return {
      ok: true,
      articleId: `${terms.shopId}:${String(record.supplierArticleId)}`,
      dated: priceMembersOf(record),
    };
  }
  const { article } = parsed;
  const conditions = article.priceConditions;
  const keptTax = offers
    ? conditions?.taxFromShop === true && terms.defaultTax === undefined
    : record.tax === undefined;
  if (offers && keptTax && conditions?.priceType !== undefined && isGrossPriceType(conditions.priceType))
    return {
      ok: false,
      violations: [
        {
          path: '',
          message:
            `price_type="${conditions.priceType}" is gross and has no TAX to make it net, and shop ` +
            `${terms.shopId} has no default tax: give TAX, or set one with --default-tax`,
        },
      ],
    };
  const { taxFromShop: _kept, ...withoutFlag } = conditions ?? { territories: [] };
  return {
    ok: true,
    articleId: article.id,
    ...(parsed.schedule !== undefined ? { dated: priceMembersOf(record) } : {}),
    prices: {
      blockPrices: article.blockPrices,
      ...(offers || record.currency !== undefined ? { currency: article.currency } : {}),
      ...(!keptTax ? { tax: article.tax } : {}),
      priceConditions: conditions && keptTax ? withoutFlag : conditions,
    },
  };
}

/** Whether the record gives ladders or price conditions: only those have dates. */
function offersOrConditions(record: Readonly<Record<string, unknown>>): boolean {
  return record.priceOffers !== undefined || record.priceConditions !== undefined;
}
