import { ExpressionEvaluationError } from './expression-evaluation-error.js';
import { EXPRESSION_LIMITS } from './expression-limits.js';
import { T, type StaticType } from './static-type.js';
import { toNum, toStr } from './value-semantics.js';

/**
 * The functions an expression may call by name: `String`, `Number`, `Boolean`, `parseInt`,
 * `parseFloat`, `isNaN`, `isFinite` and the deterministic `Math` functions. Every argument is
 * converted with the data-safe conversions first, so no user code runs.
 */
export interface FunctionSpec {
  readonly min: number;
  readonly max: number;
  /** What the result can be. */
  readonly type: StaticType;
  /** Called with the evaluated arguments (missing ones are not passed). */
  readonly fn: (...args: unknown[]) => unknown;
}

export const GLOBAL_FUNCTIONS: ReadonlyMap<string, FunctionSpec> = new Map<string, FunctionSpec>([
  ['String', { min: 1, max: 1, type: T.STRING, fn: (v) => toStr(v) }],
  ['Number', { min: 1, max: 1, type: T.NUMBER, fn: (v) => toNum(v) }],
  ['Boolean', { min: 1, max: 1, type: T.BOOLEAN, fn: (v) => Boolean(v) }],
  [
    'parseInt',
    {
      min: 1,
      max: 2,
      type: T.NUMBER,
      fn: (s, radix) => parseInt(toStr(s), radix === undefined ? undefined : toNum(radix)),
    },
  ],
  ['parseFloat', { min: 1, max: 1, type: T.NUMBER, fn: (s) => parseFloat(toStr(s)) }],
  ['isNaN', { min: 1, max: 1, type: T.BOOLEAN, fn: (v) => Number.isNaN(toNum(v)) }],
  ['isFinite', { min: 1, max: 1, type: T.BOOLEAN, fn: (v) => Number.isFinite(toNum(v)) }],
]);

type NumberFunction = (...args: number[]) => number;

const unary = (f: (x: number) => number): FunctionSpec => ({ min: 1, max: 1, type: T.NUMBER, fn: (a) => f(toNum(a)) });
const binary = (f: (x: number, y: number) => number): FunctionSpec => ({
  min: 2,
  max: 2,
  type: T.NUMBER,
  fn: (a, b) => f(toNum(a), toNum(b)),
});
const variadic = (f: NumberFunction): FunctionSpec => ({
  min: 0,
  max: 50,
  type: T.NUMBER,
  fn: (...args) => {
    if (args.length === 2) return f(toNum(args[0]), toNum(args[1]));
    return f(...args.map(toNum));
  },
});

const UNARY_MATH = [
  'abs',
  'acos',
  'acosh',
  'asin',
  'asinh',
  'atan',
  'atanh',
  'cbrt',
  'ceil',
  'cos',
  'cosh',
  'exp',
  'expm1',
  'floor',
  'fround',
  'log',
  'log10',
  'log1p',
  'log2',
  'round',
  'sign',
  'sin',
  'sinh',
  'sqrt',
  'tan',
  'tanh',
  'trunc',
] as const;

/** `Math.<name>(...)`. `Math.random` is left out: an expression gives one answer per input. */
export const MATH_FUNCTIONS: ReadonlyMap<string, FunctionSpec> = new Map<string, FunctionSpec>([
  ...UNARY_MATH.map((name) => [name, unary((x: number) => Math[name](x))] as const),
  ['atan2', binary(Math.atan2)],
  ['pow', binary(Math.pow)],
  ['max', variadic(Math.max)],
  ['min', variadic(Math.min)],
  ['hypot', variadic(Math.hypot)],
]);

/** `Math.PI` and the other constants. */
export const MATH_CONSTANTS: ReadonlyMap<string, number> = new Map(
  (['E', 'LN10', 'LN2', 'LOG10E', 'LOG2E', 'PI', 'SQRT1_2', 'SQRT2'] as const).map((name) => [name, Math[name]]),
);

/** Identifiers that name a value. */
export const GLOBAL_VALUES: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  ['undefined', undefined],
  ['NaN', NaN],
  ['Infinity', Infinity],
]);

/** Throws `DT_ERR_EVAL_RANGE` unless `n` is an integer-valued number in [min, max]. */
export function checkRange(what: string, n: number, min: number, max: number): number {
  // As JavaScript's ToIntegerOrInfinity: NaN counts as 0.
  const i = Number.isNaN(n) ? 0 : Math.trunc(n);
  if (!(i >= min && i <= max)) {
    throw new ExpressionEvaluationError(
      'DT_ERR_EVAL_RANGE',
      `${what} must be between ${min} and ${max}, got ${String(n)}`,
    );
  }
  return i;
}

export const MAX_STRING = EXPRESSION_LIMITS.maxStringLength;
export const MAX_ARRAY = EXPRESSION_LIMITS.maxArrayLength;
