import { ExpressionEvaluationError } from './expression-evaluation-error.js';
import { EXPRESSION_LIMITS } from './expression-limits.js';

/**
 * JavaScript's conversions and operators, rewritten for data so that no user-controlled code
 * (a `toString` or `valueOf` key, a getter, a null-prototype object) can run or make them throw
 * a native error. Arrays convert like `Array.prototype.join`, every other object to
 * `'[object Object]'`; functions and symbols are not data and raise `DT_ERR_EVAL_VALUE_UNSUPPORTED`.
 */

const MAX_STRING = EXPRESSION_LIMITS.maxStringLength;
const MAX_DEPTH = EXPRESSION_LIMITS.maxConversionDepth;

export type Primitive = string | number | boolean | null | undefined | bigint;

export function tooLong(what: string): ExpressionEvaluationError {
  return new ExpressionEvaluationError(
    'DT_ERR_EVAL_STRING_TOO_LONG',
    `${what} would be longer than ${MAX_STRING} characters, the limit for strings an expression builds`,
  );
}

function unsupported(value: unknown): ExpressionEvaluationError {
  return new ExpressionEvaluationError(
    'DT_ERR_EVAL_VALUE_UNSUPPORTED',
    `a ${typeof value} is not data an expression can use`,
  );
}

/** Throws `DT_ERR_EVAL_STRING_TOO_LONG` when `s` is over the limit; returns `s`. */
export function capString(s: string, what: string): string {
  if (s.length > MAX_STRING) throw tooLong(what);
  return s;
}

/** `a + b` for two strings, within the limit. */
export function concat(a: string, b: string): string {
  if (a.length + b.length > MAX_STRING) throw tooLong('the concatenation');
  return a + b;
}

/** `Array.prototype.join` with safe element conversion, bounded depth and length. */
export function joinArray(array: readonly unknown[], separator: string, depth = 0): string {
  if (depth >= MAX_DEPTH) {
    throw new ExpressionEvaluationError(
      'DT_ERR_EVAL_VALUE_UNSUPPORTED',
      `arrays nested deeper than ${MAX_DEPTH} levels cannot be turned into text`,
    );
  }
  let out = '';
  for (let i = 0; i < array.length; i++) {
    if (i > 0) out += separator;
    const element = array[i];
    if (element !== null && element !== undefined) {
      out += typeof element === 'object' ? objectToString(element, depth + 1) : toStr(element);
    }
    if (out.length > MAX_STRING) throw tooLong('the text of the array');
  }
  return out;
}

function objectToString(o: object, depth: number): string {
  return Array.isArray(o) ? joinArray(o, ',', depth) : '[object Object]';
}

/** ToPrimitive for data: objects become text, primitives stay. */
export function toPrimitive(v: unknown): Primitive {
  switch (typeof v) {
    case 'object':
      return v === null ? null : objectToString(v, 0);
    case 'symbol':
    case 'function':
      throw unsupported(v);
    case 'bigint':
    case 'boolean':
    case 'number':
    case 'string':
    case 'undefined':
      return v;
  }
}

/** `String(v)`. */
export function toStr(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'undefined':
      return String(v);
    case 'object':
      return v === null ? 'null' : objectToString(v, 0);
    case 'function':
    case 'symbol':
      throw unsupported(v);
  }
}

/** `Number(v)` (a bigint converts to the nearest number instead of throwing). */
export function toNum(v: unknown): number {
  switch (typeof v) {
    case 'number':
      return v;
    case 'string':
    case 'bigint':
      return Number(v);
    case 'boolean':
      return v ? 1 : 0;
    case 'undefined':
      return NaN;
    case 'object':
      return v === null ? 0 : Number(objectToString(v, 0));
    case 'function':
    case 'symbol':
      throw unsupported(v);
  }
}

/** `undefined` stays `undefined` (an omitted optional argument), anything else `toNum`. */
export function optNum(v: unknown): number | undefined {
  return v === undefined ? undefined : toNum(v);
}

/** `a == b` (IsLooselyEqual) without calling user code. */
export function looseEquals(a: unknown, b: unknown): boolean {
  const aObject = (typeof a === 'object' && a !== null) || typeof a === 'function';
  const bObject = (typeof b === 'object' && b !== null) || typeof b === 'function';
  if (aObject && bObject) return a === b;
  if (aObject) return b === null || b === undefined ? false : toPrimitive(a) == b;
  if (bObject) return a === null || a === undefined ? false : a == toPrimitive(b);
  return a == b;
}

/** `a + b`: numbers add, otherwise text concatenates when either side is text. */
export function add(a: unknown, b: unknown): unknown {
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (typeof a === 'string' && typeof b === 'string') return concat(a, b);
  const pa = toPrimitive(a);
  const pb = toPrimitive(b);
  if (typeof pa === 'string' || typeof pb === 'string') return concat(toStr(pa), toStr(pb));
  return toNum(pa) + toNum(pb);
}

// Relational operators on two primitives run natively: no user code, no exception.
type Comparable = number;

/**
 * `toPrimitive(v)`, typed as a number so that TypeScript lets `<` compare it: JavaScript
 * compares any two primitives (strings by code units, mixed kinds after `ToNumeric`).
 */
function comparable(v: unknown): Comparable {
  return toPrimitive(v) as Comparable;
}

export function lessThan(a: unknown, b: unknown): boolean {
  return comparable(a) < comparable(b);
}
export function lessOrEqual(a: unknown, b: unknown): boolean {
  return comparable(a) <= comparable(b);
}
export function greaterThan(a: unknown, b: unknown): boolean {
  return comparable(a) > comparable(b);
}
export function greaterOrEqual(a: unknown, b: unknown): boolean {
  return comparable(a) >= comparable(b);
}

/** `typeof v` as JavaScript answers it. */
export function typeOf(v: unknown): string {
  return typeof v;
}

/** What `typeof` says about a value, for messages: arrays and null named as such. */
export function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** Keys a member access never reads, whatever the object. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
]);

const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;

/** A member key as a property access sees it: canonical integer strings become numbers. */
export function toKey(key: unknown): string | number {
  if (typeof key === 'number') return key;
  const s = toStr(key);
  return ARRAY_INDEX.test(s) ? Number(s) : s;
}

/**
 * `o[key]` for data: `length` and integer indexes of strings and arrays, own properties of
 * plain objects (never forbidden keys), `undefined` for other primitives; reading from null or
 * undefined is `DT_ERR_EVAL_PROPERTY_OF_NULL`.
 */
export function readProperty(o: unknown, key: string | number): unknown {
  if (typeof o === 'string' || Array.isArray(o)) {
    if (key === 'length') return o.length;
    return typeof key === 'number' && Number.isInteger(key) && key >= 0 && key < o.length ? o[key] : undefined;
  }
  if (o === null || o === undefined) {
    throw new ExpressionEvaluationError('DT_ERR_EVAL_PROPERTY_OF_NULL', `cannot read '${String(key)}' of ${String(o)}`);
  }
  if (typeof o !== 'object') return undefined;
  const name = String(key);
  if (FORBIDDEN_KEYS.has(name) || !Object.hasOwn(o, name)) return undefined;
  return Reflect.get(o, name);
}
