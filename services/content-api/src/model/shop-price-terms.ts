import { DEFAULT_PRICE_TYPES, type BusinessShop } from './article.js';
import type { Decimal } from './decimal.js';

/**
 * What an import checks a catalog's prices against: the shop's terms (`BusinessShop.currency`,
 * `defaultTax`, `priceTypes`) and the moment prices must be valid at. Plain data: it crosses to
 * the parse threads.
 */
export interface ShopPriceTerms {
  readonly shopId: string;
  /** The only currency the shop's prices may be in; absent: any (a check without a shop). */
  readonly currency?: string;
  /** VAT rate for prices without `TAX`; absent: such prices are refused. */
  readonly defaultTax?: Decimal;
  /** BMEcat price types taken, most preferred first. */
  readonly priceTypes: readonly string[];
  /** ISO 8601 date-time (UTC): prices whose validity ended before are never taken. */
  readonly now: string;
}

/** The price terms of `shop` at `now` (the shop's own members, `DEFAULT_PRICE_TYPES` when it names none). */
export function shopPriceTerms(shop: BusinessShop, now: Date = new Date()): ShopPriceTerms {
  return {
    shopId: shop.id,
    currency: shop.currency,
    ...(shop.defaultTax ? { defaultTax: shop.defaultTax } : {}),
    priceTypes: shop.priceTypes && shop.priceTypes.length > 0 ? shop.priceTypes : DEFAULT_PRICE_TYPES,
    now: now.toISOString(),
  };
}

/**
 * Terms for checking records without a stored shop (tests, `catalog check` without `--shop`):
 * any currency, no default tax, `DEFAULT_PRICE_TYPES`, valid at `now`.
 */
export function anyShopTerms(shopId: string, now: Date = new Date()): ShopPriceTerms {
  return { shopId, priceTypes: DEFAULT_PRICE_TYPES, now: now.toISOString() };
}

/** Whether prices of BMEcat `priceType` are gross (VAT included) and must be converted to net. */
export function isGrossPriceType(priceType: string): boolean {
  return priceType.startsWith('gros_');
}
