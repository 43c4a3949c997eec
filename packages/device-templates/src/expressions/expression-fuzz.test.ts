import { seededRandom } from '@triad/common';
import { describe, expect, it } from 'vitest';
import { BINARY_OPERATORS } from './binary-operators.js';
import { METHODS } from './builtin-methods.js';
import { compileExpression } from './compile-expression.js';
import { ExpressionEvaluationError } from './expression-evaluation-error.js';
import type { EvaluationContext, ExpressionKind } from './expression-types.js';

const ATOMS = [
  'datapoint.value',
  'datapoint.rawValue',
  'datapoint.quality',
  'datapoint.timestamp',
  'datapoints.a.value',
  "datapoints['b#1'].rawValue",
  '0',
  '1',
  '-1',
  '2.5',
  '1e308',
  'NaN',
  'Infinity',
  'undefined',
  'null',
  'true',
  'false',
  "''",
  "'a'",
  "'5.3'",
  "'  x '",
  'Math.PI',
  '[1, "a"]',
  '[]',
];
const UNARY = ['!', '-', '+', '~', 'typeof '];
// The compiler's binary operators, and the logical ones it compiles separately.
const BINARY = [...BINARY_OPERATORS, '&&', '||', '??'];
const METHOD_NAMES = [...METHODS.keys(), 'foo', 'constructor'];
const FUNCTIONS = [
  'String',
  'Number',
  'Boolean',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'Math.abs',
  'Math.max',
  'Math.round',
  'Math.pow',
  'Math.log',
];
const REGEXES = ['/^5\\./', '/a+b/i', '/(a+)+$/', '/\\s+/', '/x|y/', '/^.*$/s'];
const GARBAGE = [
  '(',
  ')',
  '[',
  ']',
  '.',
  ',',
  '?',
  ':',
  '/',
  '`',
  "'",
  '"',
  '${',
  '}',
  '=',
  '=>',
  '!',
  '&',
  '|',
  'datapoint',
  'value',
  'x',
  '1',
  ' ',
  '\\',
  '#',
  'new',
  'this',
  '__proto__',
];

function generate(next: () => number, depth: number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  if (depth === 0 || next() < 0.25) return pick(ATOMS);
  const sub = () => generate(next, depth - 1);
  switch (Math.floor(next() * 10)) {
    case 0:
      return `${pick(UNARY)}${sub()}`;
    case 1:
    case 2:
      return `(${sub()} ${pick(BINARY)} ${sub()})`;
    case 3:
      return `(${sub()} ? ${sub()} : ${sub()})`;
    case 4:
      return `${sub()}.${pick(METHOD_NAMES)}(${next() < 0.5 ? sub() : ''}${next() < 0.3 ? `, ${sub()}` : ''})`;
    case 5:
      return `${pick(FUNCTIONS)}(${sub()}${next() < 0.3 ? `, ${sub()}` : ''})`;
    case 6:
      return next() < 0.5 ? `${sub()}.length` : `${sub()}[${sub()}]`;
    case 7:
      return `${pick(REGEXES)}.test(${sub()})`;
    case 8:
      return `\`<\${${sub()}}>\``;
    default:
      return `[${sub()}, ${sub()}]`;
  }
}

const hostile = { toString: 1, valueOf: () => 2, length: 1e9 };
const cycle: unknown[] = [1];
cycle.push(cycle);
const VALUES: readonly unknown[] = [
  0,
  -0,
  42,
  5.3,
  NaN,
  -Infinity,
  '',
  '5.3.1',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaab',
  'x'.repeat(70_000),
  true,
  null,
  undefined,
  [1, [2, 'a']],
  { a: 1 },
  hostile,
  Object.create(null) as unknown,
  cycle,
];

function contexts(next: () => number): EvaluationContext[] {
  const pick = () => VALUES[Math.floor(next() * VALUES.length)];
  return Array.from({ length: 6 }, () => ({
    datapoint: { value: pick(), rawValue: pick(), quality: 'good', timestamp: 1 },
    datapoints: { a: { value: pick(), rawValue: pick() }, 'b#1': { value: pick(), rawValue: pick() } },
  }));
}

describe('fuzz: random expressions', () => {
  it('compile never throws, and evaluate throws only ExpressionEvaluationError', () => {
    const next = seededRandom(20_240_601);
    let compiled = 0;
    for (let i = 0; i < 1_500; i++) {
      const source = generate(next, 4);
      const kind: ExpressionKind = next() < 0.5 ? 'value' : 'boolean';
      const result = compileExpression(source, { kind });
      if (!result.ok) continue;
      compiled++;
      for (const context of contexts(next)) {
        try {
          const value = result.expression.evaluate(context);
          if (kind === 'boolean') expect(typeof value).toBe('boolean');
        } catch (error) {
          if (!(error instanceof ExpressionEvaluationError)) throw new Error(`${source} threw ${String(error)}`);
        }
      }
    }
    // The generator must exercise evaluation, not only rejections.
    expect(compiled).toBeGreaterThan(300);
  });

  it('compile never throws on garbage', () => {
    const next = seededRandom(7);
    for (let i = 0; i < 2_000; i++) {
      const length = 1 + Math.floor(next() * 12);
      const source = Array.from({ length }, () => GARBAGE[Math.floor(next() * GARBAGE.length)]).join('');
      for (const kind of ['value', 'boolean', 'logic'] as const) {
        const result = compileExpression(source, { kind, symbols: ['x', 'value'] });
        if (!result.ok) {
          for (const issue of result.issues) {
            expect(issue.offset).toBeGreaterThanOrEqual(0);
            expect(issue.offset + issue.length).toBeLessThanOrEqual(source.length);
          }
        }
      }
    }
  });
});
