import type { CatalogSearch } from './catalog-search.js';

/** What `priceSortCurrency` needs of a shop. */
export interface ShopCurrency {
  readonly id: string;
  readonly currency: string;
}

/** Whether the search sorts by price (the API compares prices only within one currency). */
export function sortsByPrice(search: CatalogSearch): boolean {
  return /^[+-]?price$/.test(search.sort);
}

/**
 * The currency the page sorts prices in when the search sorts by price and names no currency
 * (decision 0036): the currency of most of the shops searched (the chosen shops, or every shop),
 * the alphabetically first on a tie. Undefined when the search does not sort by price, names its
 * currency, or no shop is known (the API then says what is missing).
 */
export function priceSortCurrency(search: CatalogSearch, shops: readonly ShopCurrency[]): string | undefined {
  if (!sortsByPrice(search) || search.currency !== '') return undefined;
  const chosen = shops.filter((shop) => search.businessShopId.includes(shop.id));
  const counts = new Map<string, number>();
  for (const shop of chosen.length > 0 ? chosen : shops)
    counts.set(shop.currency, (counts.get(shop.currency) ?? 0) + 1);
  return [...counts].sort(([a, m], [b, n]) => n - m || a.localeCompare(b))[0]?.[0];
}
