import type { Compiled, Evaluator } from './compiler-state.js';
import { T, type StaticType } from './static-type.js';
import { add, greaterOrEqual, greaterThan, lessOrEqual, lessThan, looseEquals, toNum } from './value-semantics.js';

/**
 * Closures for the binary operators, with JavaScript's semantics on data. Shapes that dominate
 * real rules get their own closure: a comparison with a number constant (`datapoint.value > 30`)
 * checks `typeof` once and compares natively, with no call for the constant side.
 */

export const BINARY_OPERATORS = new Set([
  '==',
  '!=',
  '===',
  '!==',
  '<',
  '<=',
  '>',
  '>=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '**',
  '&',
  '|',
  '^',
  '<<',
  '>>',
  '>>>',
]);

type Relational = '<' | '<=' | '>' | '>=';

const FLIPPED: Record<Relational, Relational> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** `x <op> n` for a number constant `n`. */
const RELATIONAL_CONSTANT: Record<Relational, (x: Evaluator, n: number) => Evaluator> = {
  '<': (x, n) => (c) => {
    const v = x(c);
    return typeof v === 'number' ? v < n : lessThan(v, n);
  },
  '<=': (x, n) => (c) => {
    const v = x(c);
    return typeof v === 'number' ? v <= n : lessOrEqual(v, n);
  },
  '>': (x, n) => (c) => {
    const v = x(c);
    return typeof v === 'number' ? v > n : greaterThan(v, n);
  },
  '>=': (x, n) => (c) => {
    const v = x(c);
    return typeof v === 'number' ? v >= n : greaterOrEqual(v, n);
  },
};

const RELATIONAL: Record<Relational, (l: Evaluator, r: Evaluator) => Evaluator> = {
  '<': (l, r) => (c) => {
    const a = l(c);
    const b = r(c);
    return typeof a === 'number' && typeof b === 'number' ? a < b : lessThan(a, b);
  },
  '<=': (l, r) => (c) => {
    const a = l(c);
    const b = r(c);
    return typeof a === 'number' && typeof b === 'number' ? a <= b : lessOrEqual(a, b);
  },
  '>': (l, r) => (c) => {
    const a = l(c);
    const b = r(c);
    return typeof a === 'number' && typeof b === 'number' ? a > b : greaterThan(a, b);
  },
  '>=': (l, r) => (c) => {
    const a = l(c);
    const b = r(c);
    return typeof a === 'number' && typeof b === 'number' ? a >= b : greaterOrEqual(a, b);
  },
};

function equality(op: string, left: Compiled, right: Compiled): Evaluator {
  // Put a constant on the right: equality is symmetric and has no side effects here.
  const [x, k] = left.constant !== undefined && right.constant === undefined ? [right, left] : [left, right];
  const l = x.run;
  if (k.constant !== undefined) {
    const value = k.constant.value;
    switch (op) {
      case '===':
        return (c) => l(c) === value;
      case '!==':
        return (c) => l(c) !== value;
      case '==':
        // Comparing with null or undefined never converts, so the native operator is safe.
        return value === null || value === undefined ? (c) => l(c) == null : (c) => looseEquals(l(c), value);
      default:
        return value === null || value === undefined ? (c) => l(c) != null : (c) => !looseEquals(l(c), value);
    }
  }
  const r = k.run;
  switch (op) {
    case '===':
      return (c) => l(c) === r(c);
    case '!==':
      return (c) => l(c) !== r(c);
    case '==':
      return (c) => looseEquals(l(c), r(c));
    default:
      return (c) => !looseEquals(l(c), r(c));
  }
}

const ARITHMETIC: Record<string, (a: number, b: number) => number> = {
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  '/': (a, b) => a / b,
  '%': (a, b) => a % b,
  '**': (a, b) => a ** b,
  '<<': (a, b) => a << b,
  '>>': (a, b) => a >> b,
  '>>>': (a, b) => a >>> b,
};

/** `&`, `|`, `^`: on two booleans a boolean (both sides are evaluated), otherwise bitwise on numbers. */
const BITWISE: Record<string, (l: Evaluator, r: Evaluator) => Evaluator> = {
  '&': (l, r) => (c) => {
    const a = l(c);
    const b = r(c);
    return typeof a === 'boolean' && typeof b === 'boolean' ? a && b : toNum(a) & toNum(b);
  },
  '|': (l, r) => (c) => {
    const a = l(c);
    const b = r(c);
    return typeof a === 'boolean' && typeof b === 'boolean' ? a || b : toNum(a) | toNum(b);
  },
  '^': (l, r) => (c) => {
    const a = l(c);
    const b = r(c);
    return typeof a === 'boolean' && typeof b === 'boolean' ? a !== b : toNum(a) ^ toNum(b);
  },
};

/** The closure for `left <op> right`; `op` is in `BINARY_OPERATORS`. */
export function binaryEvaluator(op: string, left: Compiled, right: Compiled): Evaluator {
  switch (op) {
    case '<':
    case '<=':
    case '>':
    case '>=':
      if (typeof right.constant?.value === 'number') return RELATIONAL_CONSTANT[op](left.run, right.constant.value);
      if (typeof left.constant?.value === 'number')
        return RELATIONAL_CONSTANT[FLIPPED[op]](right.run, left.constant.value);
      return RELATIONAL[op](left.run, right.run);
    case '==':
    case '!=':
    case '===':
    case '!==':
      return equality(op, left, right);
    case '+': {
      const l = left.run;
      const r = right.run;
      return (c) => add(l(c), r(c));
    }
    case '&':
    case '|':
    case '^':
      return BITWISE[op]!(left.run, right.run);
    default: {
      const f = ARITHMETIC[op]!;
      const l = left.run;
      const r = right.run;
      return (c) => {
        const a = l(c);
        const b = r(c);
        return typeof a === 'number' && typeof b === 'number' ? f(a, b) : f(toNum(a), toNum(b));
      };
    }
  }
}

/** What `left <op> right` can yield. */
export function binaryType(op: string, left: StaticType, right: StaticType): StaticType {
  switch (op) {
    case '+': {
      const textual = T.STRING | T.OBJECT;
      if ((left & textual) === 0 && (right & textual) === 0) return T.NUMBER;
      if (left === T.STRING || right === T.STRING) return T.STRING;
      return T.NUMBER | T.STRING;
    }
    case '&':
    case '|':
    case '^':
      if (left === T.BOOLEAN && right === T.BOOLEAN) return T.BOOLEAN;
      return (left & T.BOOLEAN) !== 0 && (right & T.BOOLEAN) !== 0 ? T.BOOLEAN | T.NUMBER : T.NUMBER;
    case '-':
    case '*':
    case '/':
    case '%':
    case '**':
    case '<<':
    case '>>':
    case '>>>':
      return T.NUMBER;
    default:
      return T.BOOLEAN;
  }
}
