import { thrownBy } from '@triad/common';
import { describe, expect, it } from 'vitest';
import { compileExpression } from './compile-expression.js';
import { ExpressionEvaluationError } from './expression-evaluation-error.js';
import { EXPRESSION_LIMITS } from './expression-limits.js';
import type { CompiledExpression, EvaluationContext } from './expression-types.js';

/** Values an operand can hold: JSON-like data, as drivers publish it. */
const VALUES: readonly unknown[] = [
  0,
  1,
  -1,
  2.5,
  30,
  NaN,
  Infinity,
  '',
  '0',
  '1',
  '30',
  'a',
  'B',
  '5.3',
  ' 2 ',
  true,
  false,
  null,
  undefined,
  [],
  [1, 2],
  ['a'],
  [[3]],
  {},
];

function compiled(source: string): CompiledExpression {
  const result = compileExpression(source, { kind: 'value' });
  if (!result.ok) throw new Error(`${source}: ${JSON.stringify(result.issues)}`);
  return result.expression;
}

const pair = (a: unknown, b: unknown): EvaluationContext => ({
  datapoint: { value: a, rawValue: b },
  datapoints: { a: { value: a, rawValue: a }, b: { value: b, rawValue: b } },
});

// The real JavaScript operators, as the reference. Operands are cast only to satisfy the checker.
type N = number;
const JS: Readonly<Record<string, (a: unknown, b: unknown) => unknown>> = {
  '+': (a, b) => (a as N) + (b as N),
  '-': (a, b) => (a as N) - (b as N),
  '*': (a, b) => (a as N) * (b as N),
  '/': (a, b) => (a as N) / (b as N),
  '%': (a, b) => (a as N) % (b as N),
  '**': (a, b) => (a as N) ** (b as N),
  '==': (a, b) => a == b,
  '!=': (a, b) => a != b,
  '===': (a, b) => a === b,
  '!==': (a, b) => a !== b,
  '<': (a, b) => (a as N) < (b as N),
  '<=': (a, b) => (a as N) <= (b as N),
  '>': (a, b) => (a as N) > (b as N),
  '>=': (a, b) => (a as N) >= (b as N),
  '<<': (a, b) => (a as N) << (b as N),
  '>>': (a, b) => (a as N) >> (b as N),
  '>>>': (a, b) => (a as N) >>> (b as N),
  '&&': (a, b) => a && b,
  '||': (a, b) => a || b,
  '??': (a, b) => a ?? b,
  // Documented difference: on two booleans, & | ^ yield booleans.
  '&': (a, b) => (typeof a === 'boolean' && typeof b === 'boolean' ? a && b : (a as N) & (b as N)),
  '|': (a, b) => (typeof a === 'boolean' && typeof b === 'boolean' ? a || b : (a as N) | (b as N)),
  '^': (a, b) => (typeof a === 'boolean' && typeof b === 'boolean' ? a !== b : (a as N) ^ (b as N)),
};

describe('binary operators', () => {
  it.each(Object.keys(JS))('%s behaves as in JavaScript for every pair of data values', (op) => {
    const expression = compiled(`datapoints.a.value ${op} datapoints.b.value`);
    for (const a of VALUES) {
      for (const b of VALUES) {
        expect([a, b, expression.evaluate(pair(a, b))]).toEqual([a, b, JS[op]!(a, b)]);
      }
    }
  });

  it.each(['<', '<=', '>', '>=', '==', '!=', '===', '!==', '-', '+'])(
    '%s with a constant on either side behaves as in JavaScript',
    (op) => {
      for (const constant of [30, '30', 'a', null, true]) {
        const text = JSON.stringify(constant);
        const right = compiled(`datapoint.value ${op} ${text}`);
        const left = compiled(`${text} ${op} datapoint.value`);
        for (const v of VALUES) {
          expect([v, constant, right.evaluate(pair(v, v))]).toEqual([v, constant, JS[op]!(v, constant)]);
          expect([constant, v, left.evaluate(pair(v, v))]).toEqual([constant, v, JS[op]!(constant, v)]);
        }
      }
    },
  );

  it('& and | combine booleans into booleans, and numbers bitwise', () => {
    const and = compiled('datapoints.a.value & datapoints.b.value');
    expect(and.evaluate(pair(true, true))).toBe(true);
    expect(and.evaluate(pair(true, false))).toBe(false);
    expect(and.evaluate(pair(6, 3))).toBe(2);
    expect(compiled('(datapoint.value & 4) != 0').evaluate(pair(13, 0))).toBe(true);
  });
});

describe('unary operators, ternary, typeof', () => {
  it.each([
    ['!', (v: unknown) => !v],
    ['-', (v: unknown) => -(v as N)],
    ['+', (v: unknown) => +(v as N)],
    ['~', (v: unknown) => ~(v as N)],
    ['typeof ', (v: unknown) => typeof v],
  ])('%s behaves as in JavaScript', (op, reference) => {
    const expression = compiled(`${op}datapoint.value`);
    for (const v of VALUES) expect([v, expression.evaluate(pair(v, v))]).toEqual([v, reference(v)]);
  });

  it('?: picks a branch by truthiness', () => {
    const expression = compiled("datapoint.value ? 'on' : 'off'");
    for (const v of VALUES) expect(expression.evaluate(pair(v, v))).toBe(v ? 'on' : 'off');
  });

  it('&& and || short-circuit: the other side is not evaluated', () => {
    expect(compiled('datapoint.value !== null && datapoint.value.length > 2').evaluate(pair(null, null))).toBe(false);
    expect(compiled('datapoint.value === null || datapoint.value.length > 2').evaluate(pair(null, null))).toBe(true);
  });
});

describe('conversions never run user code', () => {
  const hostile: readonly unknown[] = [
    { toString: 5, valueOf: 6 },
    { toString: () => 'x' },
    Object.create(null) as unknown,
    [{ toString: 1 }],
  ];

  it.each(['+', '-', '==', '<', '&'])(
    '%s on objects with odd toString/valueOf keys gives the plain-data result',
    (op) => {
      const expression = compiled(`datapoints.a.value ${op} datapoints.b.value`);
      for (const a of hostile) {
        const plain = Array.isArray(a) ? ['[object Object]'] : {};
        expect(expression.evaluate(pair(a, 1))).toEqual(JS[op]!(plain, 1));
        expect(expression.evaluate(pair('s', a))).toEqual(JS[op]!('s', plain));
      }
    },
  );

  it('String(), template literals and join() treat objects as data', () => {
    const value = { toString: () => 'hacked' };
    expect(compiled('String(datapoint.value)').evaluate(pair(value, 0))).toBe('[object Object]');
    expect(compiled('`${datapoint.value}`').evaluate(pair([1, null, [2, 3]], 0))).toBe('1,,2,3');
  });

  it('functions and symbols in the context are typed errors, not crashes', () => {
    const expression = compiled("datapoint.value + ''");
    for (const odd of [() => 1, Symbol('s')]) {
      expect(thrownBy(() => expression.evaluate(pair(odd, 0)))).toMatchObject({
        code: 'DT_ERR_EVAL_VALUE_UNSUPPORTED',
      });
    }
  });

  it('a self-containing array is a typed error', () => {
    const cycle: unknown[] = [1];
    cycle.push(cycle);
    expect(() => compiled('String(datapoint.value)').evaluate(pair(cycle, 0))).toThrow(ExpressionEvaluationError);
  });
});

describe('member access', () => {
  it('reads length, indexes and own properties of data', () => {
    expect(compiled('datapoint.value.length').evaluate(pair('abc', 0))).toBe(3);
    expect(compiled('datapoint.value[1]').evaluate(pair(['x', 'y'], 0))).toBe('y');
    expect(compiled("datapoint.value['1']").evaluate(pair('xy', 0))).toBe('y');
    expect(compiled('datapoint.value.temperature').evaluate(pair({ temperature: 21 }, 0))).toBe(21);
    expect(compiled('datapoint.value[datapoint.rawValue]').evaluate(pair({ k: 1 }, 'k'))).toBe(1);
  });

  it('never reads inherited properties, even with a computed key', () => {
    const read = compiled('datapoint.value[datapoint.rawValue]');
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(read.evaluate(pair({}, key))).toBeUndefined();
      expect(read.evaluate(pair([], key))).toBeUndefined();
      expect(read.evaluate(pair('s', key))).toBeUndefined();
    }
  });

  it('reading from null or undefined is a typed error', () => {
    expect(thrownBy(() => compiled('datapoint.value.x').evaluate(pair(null, 0)))).toMatchObject({
      code: 'DT_ERR_EVAL_PROPERTY_OF_NULL',
    });
    expect(compiled('datapoint.value.x').evaluate(pair(5, 0))).toBeUndefined();
  });
});

describe('string size limit', () => {
  const max = EXPRESSION_LIMITS.maxStringLength;

  it('concatenation beyond the limit is a typed error', () => {
    const expression = compiled('datapoint.value + datapoint.rawValue');
    expect(expression.evaluate(pair('a'.repeat(max - 1), 'b'))).toHaveLength(max);
    expect(thrownBy(() => expression.evaluate(pair('a'.repeat(max), 'b')))).toMatchObject({
      code: 'DT_ERR_EVAL_STRING_TOO_LONG',
    });
  });

  it('template literals beyond the limit are a typed error', () => {
    expect(
      thrownBy(() => compiled('`${datapoint.value}${datapoint.value}`').evaluate(pair('a'.repeat(max / 2 + 1), 0))),
    ).toMatchObject({ code: 'DT_ERR_EVAL_STRING_TOO_LONG' });
  });
});
