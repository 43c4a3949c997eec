import { invalidQueryParam } from '../errors.js';
import type { BusinessShop } from '../model/article.js';
import type { FilterExpression, SearchQuery } from './search-query.js';

/** True when `filter` holds a price condition anywhere in its tree. */
export function filtersByPrice(filter: FilterExpression | undefined): boolean {
  if (!filter) return false;
  if (filter.type === 'And' || filter.type === 'Or') return filter.operands.some(filtersByPrice);
  return filter.type === 'DecimalRangeFilter';
}

/** A filter no article passes (an empty `Or`). */
const NOTHING: FilterExpression = { type: 'Or', operands: [] };

/**
 * Keeps prices of different currencies apart. An article's prices are in its shop's currency.
 *
 * - With `currency`, the search covers only the shops (of `businessShopId`, or all) whose
 *   currency it is: their ids become the query's `shopIds`; no such shop, no article.
 * - Without it, a price filter (`DecimalRangeFilter` anywhere in `fq`) or a `price` sort over
 *   shops of more than one currency would compare different money: refused.
 *
 * Shops in `shopIds` that do not exist do not count. Pure; the query is not changed otherwise.
 *
 * @throws ProblemError 400 invalid-query-param (`queryParam: 'currency'`, code `TYPE`) naming
 *   the currencies and how to choose one.
 */
export function scopeToCurrency(
  query: SearchQuery,
  currency: string | undefined,
  shops: ReadonlyMap<string, BusinessShop>,
): SearchQuery {
  const inScope = query.shopIds.length > 0 ? query.shopIds.flatMap((id) => shops.get(id) ?? []) : [...shops.values()];
  if (currency !== undefined) {
    const ids = inScope.filter((shop) => shop.currency === currency).map((shop) => shop.id);
    if (ids.length > 0) return { ...query, shopIds: ids };
    return { ...query, filter: query.filter ? { type: 'And', operands: [query.filter, NOTHING] } : NOTHING };
  }
  if (!filtersByPrice(query.filter) && !query.sort.some((key) => key.field === 'price')) return query;
  const currencies = [...new Set(inScope.map((shop) => shop.currency))].sort();
  if (currencies.length <= 1) return query;
  throw invalidQueryParam('currency', [
    {
      path: '#/currency',
      code: 'TYPE',
      description:
        `is required with a price filter or price sort over shops in ${currencies.join(' and ')}, ` +
        `whose prices cannot be compared: add currency=${currencies[0]} (one of ${currencies.join(', ')}) ` +
        'or businessShopId of shops with one currency',
    },
  ]);
}
