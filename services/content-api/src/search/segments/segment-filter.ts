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
 * segment: a condition on one column (a manufacturer or classification group, several of one
 * column in an `Or`, a price range) is one tight loop over that column with a table of accepted
 * keys or the bounds inlined; an `And` scans for its first such condition and narrows the
 * candidates in place by the others, one loop each (conditions of other shapes test the
 * remaining candidates through `segmentFilter`); an `Or` merges its operands' lists. Same
 * semantics as `segmentFilter`. The list returned is the caller's (filter positions are kept).
 */
export function segmentFilterPositions(
  expression: FilterExpression,
  segment: Segment,
  dictionary: FacetDictionary,
): boolean | Uint32Array {
  const folded = segmentFilter(expression, segment, dictionary);
  if (typeof folded === 'boolean') return folded;
  const test = columnTest(expression, segment, dictionary);
  if (test) return scan(segment.size, test);
  switch (expression.type) {
    case 'And': {
      const tests: ColumnTest[] = [];
      const others: FilterExpression[] = [];
      for (const operand of expression.operands) {
        // Folded as `segmentFilter` folds it: false decided above, true changes nothing.
        if (segmentFilter(operand, segment, dictionary) === true) continue;
        const simple = columnTest(operand, segment, dictionary);
        if (simple) tests.push(simple);
        else others.push(operand);
      }
      // Keys (four bytes an article) before prices (eight): the first scan reads the whole column.
      tests.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'keys' ? -1 : 1));
      const [first, ...rest] = tests;
      let candidates: Uint32Array;
      let n: number;
      if (first) {
        // Narrowed where it was scanned; copied out once at the end.
        n = scanInto(segment.size, first);
        candidates = scratch;
      } else {
        const positions = segmentFilterPositions(others.shift() as FilterExpression, segment, dictionary);
        if (typeof positions === 'boolean') throw new TypeError('a filter folded differently');
        candidates = positions;
        n = positions.length;
      }
      for (const t of rest) n = narrow(candidates, n, t);
      for (const operand of others) {
        const passes = segmentFilter(operand, segment, dictionary);
        if (typeof passes === 'boolean') throw new TypeError('a filter folded differently');
        let kept = 0;
        for (let p = 0; p < n; p += 1) {
          const i = candidates[p] as number;
          if (passes(i)) candidates[kept++] = i;
        }
        n = kept;
      }
      return candidates !== scratch && n === candidates.length ? candidates : candidates.slice(0, n);
    }
    case 'Or': {
      const lists: Uint32Array[] = [];
      for (const operand of expression.operands) {
        const positions = segmentFilterPositions(operand, segment, dictionary);
        if (positions === true) return true;
        if (positions !== false) lists.push(positions);
      }
      if (lists.length === 0) return false;
      return lists.reduce(union);
    }
    case 'ExactStringMatchFilter':
    case 'ExactReferenceFeatureMatchFilter':
    case 'DecimalRangeFilter':
      // Every leaf that does not fold is a column test.
      throw new TypeError(`no column test for a ${expression.type}`);
  }
}

/** A condition one loop tests without a call: the column's key accepted by a table, or a price within bounds. */
type ColumnTest =
  | { readonly kind: 'keys'; readonly column: Uint32Array; readonly accept: Uint8Array }
  | { readonly kind: 'range'; readonly column: Float64Array; readonly low: number; readonly high: number };

/**
 * `expression` as a test of one column, when it is one: a leaf, or an `Or` of exact matches of
 * one column (values absent from the dictionary match nothing). Undefined otherwise; call only
 * for expressions `segmentFilter` does not fold to a constant.
 */
function columnTest(
  expression: FilterExpression,
  segment: Segment,
  dictionary: FacetDictionary,
): ColumnTest | undefined {
  const columns = segment.columns;
  switch (expression.type) {
    case 'And':
      return undefined;
    case 'Or': {
      let column: Uint32Array | undefined;
      const keys: number[] = [];
      for (const operand of expression.operands) {
        const part = keyMatch(operand, segment, dictionary);
        if (!part || (column && part.column !== column)) return undefined;
        column = part.column;
        if (part.key !== undefined) keys.push(part.key);
      }
      return column ? keysTest(column, keys) : undefined;
    }
    case 'DecimalRangeFilter': {
      const column =
        expression.filterName === 'pricePerMinimumOrderQuantity' ? columns.price : columns.priceInclSpecialTaxes;
      const low = expression.lowerBound ? Number(toScaled(expression.lowerBound)) : -Infinity;
      const high = expression.upperBound ? Number(toScaled(expression.upperBound)) : Infinity;
      return { kind: 'range', column, low, high };
    }
    case 'ExactStringMatchFilter':
    case 'ExactReferenceFeatureMatchFilter': {
      const part = keyMatch(expression, segment, dictionary);
      return part ? keysTest(part.column, part.key === undefined ? [] : [part.key]) : undefined;
    }
  }
}

/** An exact match as a column and the key to match (undefined: a value no article has); else undefined. */
function keyMatch(
  expression: FilterExpression,
  segment: Segment,
  dictionary: FacetDictionary,
): { column: Uint32Array; key: number | undefined } | undefined {
  if (expression.type === 'ExactStringMatchFilter' && expression.filterName === 'manufacturerName')
    return { column: segment.columns.manufacturer, key: keyOrNone(dictionary, 'manufacturerName', expression.value) };
  if (expression.type === 'ExactReferenceFeatureMatchFilter')
    return {
      column: segment.columns[CLASSIFICATION_COLUMNS[expression.filterName]],
      key: keyOrNone(dictionary, expression.filterName, expression.group),
    };
  return undefined;
}

function keysTest(column: Uint32Array, keys: readonly number[]): ColumnTest {
  const accept = new Uint8Array(Math.max(0, ...keys) + 1);
  for (const key of keys) accept[key] = 1;
  return { kind: 'keys', column, accept };
}

/**
 * Where `scanInto` writes (a scan of one thread runs to its end before the next), grown to the
 * largest segment: a scan allocates only the list it returns.
 */
let scratch = new Uint32Array(0);

/** Positions `0..size-1` passing `test`, ascending, in an array of their own. */
function scan(size: number, test: ColumnTest): Uint32Array {
  const n = scanInto(size, test); // first: it may replace `scratch`
  return scratch.slice(0, n);
}

/** Writes the positions `0..size-1` passing `test` to the start of `scratch`, ascending; returns how many. */
function scanInto(size: number, test: ColumnTest): number {
  if (scratch.length < size) scratch = new Uint32Array(size);
  const out = scratch;
  let n = 0;
  if (test.kind === 'keys') {
    const { column, accept } = test;
    const max = accept.length - 1;
    for (let i = 0; i < size; i += 1) {
      const key = column[i] as number;
      if (key <= max && accept[key] === 1) out[n++] = i;
    }
  } else {
    const { column, low, high } = test;
    // A missing price (NaN) compares false both ways, as in `segmentFilter`.
    for (let i = 0; i < size; i += 1) {
      const price = column[i] as number;
      if (price >= low && price <= high) out[n++] = i;
    }
  }
  return n;
}

/** Keeps the first `n` of `positions` that pass `test`, in place and in order; returns how many. */
function narrow(positions: Uint32Array, n: number, test: ColumnTest): number {
  let kept = 0;
  if (test.kind === 'keys') {
    const { column, accept } = test;
    const max = accept.length - 1;
    for (let p = 0; p < n; p += 1) {
      const i = positions[p] as number;
      const key = column[i] as number;
      if (key <= max && accept[key] === 1) positions[kept++] = i;
    }
  } else {
    const { column, low, high } = test;
    for (let p = 0; p < n; p += 1) {
      const i = positions[p] as number;
      const price = column[i] as number;
      if (price >= low && price <= high) positions[kept++] = i;
    }
  }
  return kept;
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
