import { sql, type RawBuilder } from 'kysely';
import { toScaled } from '../model/decimal.js';
import type { FilterExpression } from './search-query.js';

/**
 * Translates a validated filter tree into a SQL condition over the `a` alias of
 * `content_articles` (exact matches, inclusive price bounds, empty `And` true, empty `Or` false).
 * A manufacturer or group `''` matches the articles without one (the facets' `''` bucket).
 */
export function compileFilter(expression: FilterExpression): RawBuilder<unknown> {
  switch (expression.type) {
    case 'And':
    case 'Or': {
      if (expression.operands.length === 0) return expression.type === 'And' ? sql`1 = 1` : sql`1 = 0`;
      const glue = expression.type === 'And' ? sql` and ` : sql` or `;
      return sql`(${sql.join(expression.operands.map(compileFilter), glue)})`;
    }
    case 'ExactStringMatchFilter':
      return expression.filterName === 'businessShopId'
        ? sql`a.shop_id = ${expression.value}`
        : equalsOrNone(sql.raw('a.manufacturer_name'), expression.value);
    case 'ExactReferenceFeatureMatchFilter':
      return equalsOrNone(sql.raw(expression.filterName === 'UNSPSC-7' ? 'a.unspsc7' : 'a.unspsc9'), expression.group);
    case 'DecimalRangeFilter': {
      const column = sql.raw(
        expression.filterName === 'pricePerMinimumOrderQuantity' ? 'a.price_scaled' : 'a.price_incl_scaled',
      );
      const parts: RawBuilder<unknown>[] = [];
      if (expression.lowerBound) parts.push(sql`${column} >= ${Number(toScaled(expression.lowerBound))}`);
      if (expression.upperBound) parts.push(sql`${column} <= ${Number(toScaled(expression.upperBound))}`);
      return parts.length > 0 ? sql`(${sql.join(parts, sql` and `)})` : sql`1 = 1`;
    }
  }
}

function equalsOrNone(column: RawBuilder<unknown>, value: string): RawBuilder<unknown> {
  return value === '' ? sql`${column} is null` : sql`${column} = ${value}`;
}
