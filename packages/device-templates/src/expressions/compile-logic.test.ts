import { thrownBy } from '@triad/common';
import { describe, expect, it } from 'vitest';
import { compileExpression } from './compile-expression.js';
import type { CompiledExpression, ExpressionIssue } from './expression-types.js';

function logic(source: string, symbols: readonly string[]): CompiledExpression {
  const result = compileExpression(source, { kind: 'logic', symbols });
  if (!result.ok) throw new Error(`${source}: ${JSON.stringify(result.issues)}`);
  return result.expression;
}

function issues(source: string, symbols: readonly string[]): readonly ExpressionIssue[] {
  const result = compileExpression(source, { kind: 'logic', symbols });
  return result.ok ? result.warnings : result.issues;
}

describe('logic', () => {
  it('combines symbols with &, |, &&, ||, ! and parentheses', () => {
    const expression = logic('(evalID1 & evalID2) | !evalID3 && true', ['evalID1', 'evalID2', 'evalID3']);
    for (const a of [true, false]) {
      for (const b of [true, false]) {
        for (const c of [true, false]) {
          expect(
            expression.evaluate({
              datapoint: { value: 0, rawValue: 0 },
              symbols: { evalID1: a, evalID2: b, evalID3: c },
            }),
          ).toBe((a && b) || (!c && true));
        }
      }
    }
    expect(expression.references.symbols).toEqual(['evalID1', 'evalID2', 'evalID3']);
  });

  it('reports an undeclared symbol with the declared ones and a suggestion', () => {
    expect(issues('evalID1 & evalID3', ['evalID1', 'evalID2'])).toContainEqual(
      expect.objectContaining({
        code: 'DT_ERR_EXPR_SYMBOL_UNDECLARED',
        message: 'symbol evalID3 is not declared; declared: evalID1, evalID2 (did you mean evalID1?)',
        offset: 10,
        length: 7,
        name: 'evalID3',
      }),
    );
  });

  it('warns about declared symbols that logic does not use', () => {
    const result = compileExpression('evalID1', { kind: 'logic', symbols: ['evalID1', 'evalID2'] });
    expect(result.ok).toBe(true);
    expect(result.ok && result.warnings).toEqual([
      expect.objectContaining({ code: 'DT_WARN_EXPR_SYMBOL_UNUSED', name: 'evalID2', severity: 'warning' }),
    ]);
  });

  it.each([
    ['a == b', '=='],
    ['a + b', '+'],
    ['a ? b : a', 'a ? b : a'],
    ['datapoint.value', 'datapoint.value'],
    ['a & 1', '1'],
    ['f(a)', 'f(a)'],
  ])('refuses %s, pointing at %s', (source, text) => {
    const error = issues(source, ['a', 'b']).find((issue) => issue.code === 'DT_ERR_EXPR_LOGIC_UNSUPPORTED')!;
    expect(source.slice(error.offset, error.offset + error.length)).toBe(text);
  });

  it('accepts symbols that are not identifiers, where they stand alone', () => {
    const expression = logic('link-down | if & cpu.high', ['link-down', 'if', 'cpu.high', 'link']);
    const symbols = { 'link-down': false, if: true, 'cpu.high': true, link: false };
    expect(expression.evaluate({ datapoint: { value: 0, rawValue: 0 }, symbols })).toBe(true);
    expect(expression.references.symbols).toEqual(['link-down', 'if', 'cpu.high']);
    expect(issues('link-down | if', ['link-down', 'if', 'down'])).toEqual([
      expect.objectContaining({ code: 'DT_WARN_EXPR_SYMBOL_UNUSED', name: 'down' }),
    ]);
  });

  it('reports a syntax error at its place in the original text', () => {
    expect(issues('link-down &', ['link-down'])).toEqual([
      expect.objectContaining({ code: 'DT_ERR_EXPR_SYNTAX', offset: 11 }),
    ]);
  });

  it('fails the evaluation with a typed error when a symbol has no boolean', () => {
    const expression = logic('a & b', ['a', 'b']);
    expect(
      thrownBy(() => expression.evaluate({ datapoint: { value: 0, rawValue: 0 }, symbols: { a: true } })),
    ).toMatchObject({ code: 'DT_ERR_EVAL_SYMBOL_MISSING' });
    expect(thrownBy(() => expression.evaluate({ datapoint: { value: 0, rawValue: 0 } }))).toMatchObject({
      code: 'DT_ERR_EVAL_SYMBOL_MISSING',
    });
    expect(
      thrownBy(() => logic('toString', ['toString']).evaluate({ datapoint: { value: 0, rawValue: 0 }, symbols: {} })),
    ).toMatchObject({ code: 'DT_ERR_EVAL_SYMBOL_MISSING' });
  });

  it('warns about constant logic', () => {
    expect(issues('true | false', [])).toEqual([expect.objectContaining({ code: 'DT_WARN_EXPR_CONSTANT_RESULT' })]);
  });
});
