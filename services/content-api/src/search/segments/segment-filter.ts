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
 * The positions of a segment that pass `expression`, ascending, or a constant when the whole
 * segment passes or fails (as `segmentFilter` folds it). For scans over every article of a
 * segment: a condition is one tight loop over its column (an `Or` of values of one column one
 * loop over it), an `Or` merges its operands' lists, and an `And` tests the candidates of its
 * first operand against the others, so the scan and the counting that follow visit only the
 * articles that pass. Same semantics as `segmentFilter`.
 */
export function segmentFilterPositions(
  expression: FilterExpression,
  segment: Segment,
  dictionary: FacetDictionary,
): boolean | Uint32Array {
  const columns = segment.columns;
  const size = segment.size;
  switch (expression.type) {
    case 'And': {
      let first: Uint32Array | undefined;
      const rest: ((i: number) => boolean)[] = [];
      for (const operand of expression.operands) {
        // Folded as `segmentFilter` folds it: false decides, true changes nothing.
        const test = segmentFilter(operand, segment, dictionary);
        if (test === false) return false;
        if (test === true) continue;
        if (first === undefined) {
          const positions = segmentFilterPositions(operand, segment, dictionary);
          if (typeof positions === 'boolean') throw new TypeError('a filter folded differently');
          first = positions;
        } else rest.push(test);
      }
      if (first === undefined) return true;
      if (rest.length === 0) return first;
      const kept = new Uint32Array(first.length);
      let n = 0;
      for (let p = 0; p < first.length; p += 1) {
        const i = first[p] as number;
        if (rest.every((test) => test(i))) kept[n++] = i;
      }
      return kept.subarray(0, n);
    }
    case 'Or': {
      const lists: Uint32Array[] = [];
      const values = new Set<number>();
      for (const operand of expression.operands) {
        const key =
          operand.type === 'ExactStringMatchFilter' && operand.filterName === 'manufacturerName'
            ? keyOrNone(dictionary, 'manufacturerName', operand.value)
            : null;
        if (key !== null) {
          // Values of the manufacturer column are gathered into one loop over it.
          if (key !== undefined) values.add(key);
          continue;
        }
        const positions = segmentFilterPositions(operand, segment, dictionary);
        if (positions === true) return true;
        if (positions !== false) lists.push(positions);
      }
      if (values.size > 0) lists.push(inValues(columns.manufacturer, size, values));
      if (lists.length === 0) return false;
      return lists.reduce(union);
    }
    case 'ExactStringMatchFilter': {
      if (expression.filterName === 'businessShopId') return segment.shopId === expression.value;
      const key = keyOrNone(dictionary, 'manufacturerName', expression.value);
      return key === undefined ? false : inValues(columns.manufacturer, size, new Set([key]));
    }
    case 'ExactReferenceFeatureMatchFilter': {
      const key = keyOrNone(dictionary, expression.filterName, expression.group);
      return key === undefined
        ? false
        : inValues(columns[CLASSIFICATION_COLUMNS[expression.filterName]], size, new Set([key]));
    }
    case 'DecimalRangeFilter': {
      const column =
        expression.filterName === 'pricePerMinimumOrderQuantity' ? columns.price : columns.priceInclSpecialTaxes;
      const low = expression.lowerBound ? Number(toScaled(expression.lowerBound)) : -Infinity;
      const high = expression.upperBound ? Number(toScaled(expression.upperBound)) : Infinity;
      if (low > high) return false;
      if (low === -Infinity && high === Infinity) return true;
      const out = new Uint32Array(size);
      let n = 0;
      // A missing price (NaN) compares false both ways, as in `segmentFilter`.
      for (let i = 0; i < size; i += 1) {
        const price = column[i] as number;
        if (price >= low && price <= high) out[n++] = i;
      }
      return out.subarray(0, n);
    }
  }
}
/** Positions (ascending) whose `column` value is one of `values`. */
function inValues(column: Uint32Array, size: number, values: ReadonlySet<number>): Uint32Array {
  let max = 0;
  for (const v of values) if (v > max) max = v;
  const accept = new Uint8Array(max + 1);
  for (const v of values) accept[v] = 1;
  const out = new Uint32Array(size);
  let n = 0;
  for (let i = 0; i < size; i += 1) {
    const value = column[i] as number;
    if (value <= max && accept[value] === 1) out[n++] = i;
  }
  return out.subarray(0, n);
}

/** The union of two ascending position lists, ascending, without repeats. */
function union(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  let x = 0;
  let y = 0;
  let n = 0;
  while (x < a.length && y < b.length) {
    const u = a[x] as number;
    const v = b[y] as number;
    if (u <= v) x += 1;
    if (v <= u) y += 1;
    out[n++] = u <= v ? u : v;
  }
  while (x < a.length) out[n++] = a[x++] as number;
  while (y < b.length) out[n++] = b[y++] as number;
  return out.subarray(0, n);
}
