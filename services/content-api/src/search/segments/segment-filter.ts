import { toScaled } from '../../model/decimal.js';
import type { FilterExpression } from '../search-query.js';
import type { DictionaryFacet, FacetDictionary } from './facet-dictionary.js';
import { CLASSIFICATION_COLUMNS } from './segment-columns.js';
import type { Segment } from './segment.js';

/** Which positions of a segment pass: all (`true`), none (`false`) or those the function accepts. */
export type PositionFilter = boolean | ((i: number) => boolean);

/**
 * Compiles a filter tree for one segment. Shop conditions are constants per segment and values
 * absent from the dictionary match nothing, so whole segments often fold to `true` or `false`
 * and are counted or skipped without looking at their articles. Same semantics as the SQL
 * translation: exact matches (value `''`: articles without one), inclusive price bounds, empty
 * `And` true, empty `Or` false.
 */
export function segmentFilter(
  expression: FilterExpression,
  segment: Segment,
  dictionary: FacetDictionary,
): PositionFilter {
  const columns = segment.columns;
  switch (expression.type) {
    case 'And':
    case 'Or': {
      const all = expression.type === 'And';
      const parts: ((i: number) => boolean)[] = [];
      for (const operand of expression.operands) {
        const part = segmentFilter(operand, segment, dictionary);
        if (part === !all) return !all; // false in an And, true in an Or decides
        if (part !== all) parts.push(part as (i: number) => boolean);
      }
      const [first, second] = parts;
      if (first === undefined) return all;
      if (second === undefined) return first;
      // Two operands (the common case) call each other directly: no array walk per article.
      if (parts.length === 2) return all ? (i) => first(i) && second(i) : (i) => first(i) || second(i);
      return all ? (i) => parts.every((p) => p(i)) : (i) => parts.some((p) => p(i));
    }
    case 'ExactStringMatchFilter': {
      if (expression.filterName === 'businessShopId') return segment.shopId === expression.value;
      return equals(columns.manufacturer, keyOrNone(dictionary, 'manufacturerName', expression.value));
    }
    case 'ExactReferenceFeatureMatchFilter':
      return equals(
        columns[CLASSIFICATION_COLUMNS[expression.filterName]],
        keyOrNone(dictionary, expression.filterName, expression.group),
      );
    case 'DecimalRangeFilter': {
      const column =
        expression.filterName === 'pricePerMinimumOrderQuantity' ? columns.price : columns.priceInclSpecialTaxes;
      const low = expression.lowerBound ? Number(toScaled(expression.lowerBound)) : -Infinity;
      const high = expression.upperBound ? Number(toScaled(expression.upperBound)) : Infinity;
      if (low > high) return false;
      if (low === -Infinity && high === Infinity) return true;
      return (i) => {
        const price = column[i] ?? NaN;
        return price >= low && price <= high;
      };
    }
  }
}

/** The key to match: 0 (no value) for `''`, the bucket of articles without one; undefined for an unknown value. */
function keyOrNone(dictionary: FacetDictionary, facet: DictionaryFacet, value: string): number | undefined {
  if (value === '') return 0;
  const key = dictionary.keyOf(facet, value);
  return key === 0 ? undefined : key;
}

function equals(column: Uint32Array, key: number | undefined): PositionFilter {
  return key === undefined ? false : (i) => column[i] === key;
}

/**
 * The positions of a segment that pass `expression`, as a mask (1: passes) computed a column at
 * a time, or a constant when the whole segment passes or fails (as `segmentFilter` folds it).
 * For scans over every article of a segment: tight loops over typed arrays instead of a call per
 * article, and the same semantics as `segmentFilter`.
 */
export function segmentFilterMask(
  expression: FilterExpression,
  segment: Segment,
  dictionary: FacetDictionary,
): boolean | Uint8Array {
  const columns = segment.columns;
  const size = segment.size;
  switch (expression.type) {
    case 'And':
    case 'Or': {
      const all = expression.type === 'And';
      let mask: Uint8Array | undefined;
      for (const operand of expression.operands) {
        const part = segmentFilterMask(operand, segment, dictionary);
        // false in an And, true in an Or decides; the other constant changes nothing.
        if (typeof part === 'boolean') {
          if (part === all) continue;
          return part;
        }
        if (!mask) mask = part;
        else if (all) for (let i = 0; i < size; i += 1) mask[i] = (mask[i] as number) & (part[i] as number);
        else for (let i = 0; i < size; i += 1) mask[i] = (mask[i] as number) | (part[i] as number);
      }
      return mask ?? all;
    }
    case 'ExactStringMatchFilter': {
      if (expression.filterName === 'businessShopId') return segment.shopId === expression.value;
      return equalsMask(columns.manufacturer, size, keyOrNone(dictionary, 'manufacturerName', expression.value));
    }
    case 'ExactReferenceFeatureMatchFilter':
      return equalsMask(
        columns[CLASSIFICATION_COLUMNS[expression.filterName]],
        size,
        keyOrNone(dictionary, expression.filterName, expression.group),
      );
    case 'DecimalRangeFilter': {
      const column =
        expression.filterName === 'pricePerMinimumOrderQuantity' ? columns.price : columns.priceInclSpecialTaxes;
      const low = expression.lowerBound ? Number(toScaled(expression.lowerBound)) : -Infinity;
      const high = expression.upperBound ? Number(toScaled(expression.upperBound)) : Infinity;
      if (low > high) return false;
      if (low === -Infinity && high === Infinity) return true;
      const mask = new Uint8Array(size);
      // A missing price (NaN) compares false both ways, as in `segmentFilter`.
      for (let i = 0; i < size; i += 1) {
        const price = column[i] as number;
        mask[i] = price >= low && price <= high ? 1 : 0;
      }
      return mask;
    }
  }
}

function equalsMask(column: Uint32Array, size: number, key: number | undefined): boolean | Uint8Array {
  if (key === undefined) return false;
  const mask = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) mask[i] = column[i] === key ? 1 : 0;
  return mask;
}
