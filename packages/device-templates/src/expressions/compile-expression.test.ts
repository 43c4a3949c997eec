import { thrownBy } from '@triad/common';
import { describe, expect, it } from 'vitest';
import { compileExpression } from './compile-expression.js';
import { ExpressionEvaluationError } from './expression-evaluation-error.js';
import { expressionEvaluationErrors, expressionProblems } from './expression-problems.js';
import type { CompileOptions, EvaluationContext, ExpressionIssue } from './expression-types.js';

const VALUE: CompileOptions = { kind: 'value' };
const BOOLEAN: CompileOptions = { kind: 'boolean' };

function issuesOf(source: string, options: CompileOptions = VALUE): readonly ExpressionIssue[] {
  const result = compileExpression(source, options);
  return result.ok ? result.warnings : result.issues;
}

/** The single error of `source`, with the text it points at. */
function errorOf(source: string, options: CompileOptions = VALUE): ExpressionIssue & { text: string } {
  const result = compileExpression(source, options);
  if (result.ok) throw new Error(`expected an error for ${source}`);
  const error = result.issues.find((issue) => issue.severity === 'error')!;
  return { ...error, text: source.slice(error.offset, error.offset + error.length) };
}

function evaluate(source: string, context: EvaluationContext, options: CompileOptions = VALUE): unknown {
  const result = compileExpression(source, options);
  if (!result.ok) throw new Error(`${source}: ${JSON.stringify(result.issues)}`);
  return result.expression.evaluate(context);
}

const ctx = (value: unknown, rawValue: unknown = value): EvaluationContext => ({
  datapoint: { value, rawValue, quality: 'good', timestamp: 1000 },
});

describe('compileExpression: the whitelist', () => {
  it.each([
    ['datapoint.value = 3', 'DT_ERR_EXPR_UNSUPPORTED', 'datapoint.value = 3', /assignment/],
    ['datapoint.value += 3', 'DT_ERR_EXPR_UNSUPPORTED', 'datapoint.value += 3', /assignment/],
    ['this.x', 'DT_ERR_EXPR_UNSUPPORTED', 'this', /this is not available/],
    ['new Date()', 'DT_ERR_EXPR_UNSUPPORTED', 'new Date()', /new is not allowed/],
    ['(() => 1)', 'DT_ERR_EXPR_UNSUPPORTED', '() => 1', /functions cannot be defined/],
    [
      '(function () { return 1 })',
      'DT_ERR_EXPR_UNSUPPORTED',
      'function () { return 1 }',
      /functions cannot be defined/,
    ],
    ['(1, 2)', 'DT_ERR_EXPR_UNSUPPORTED', '1, 2', /comma operator/],
    ['({ a: 1 })', 'DT_ERR_EXPR_UNSUPPORTED', '{ a: 1 }', /object literals/],
    ['datapoint.value?.length', 'DT_ERR_EXPR_UNSUPPORTED', 'datapoint.value?.length', /optional chaining/],
    ['String`x`', 'DT_ERR_EXPR_UNSUPPORTED', 'String`x`', /tagged templates/],
    ['delete datapoint.value', 'DT_ERR_EXPR_UNSUPPORTED', 'delete', /delete operator/],
    ["'value' in datapoint", 'DT_ERR_EXPR_UNSUPPORTED', 'in', /in operator/],
    ['datapoint.value instanceof Array', 'DT_ERR_EXPR_UNSUPPORTED', 'instanceof', /instanceof operator/],
    ['10n', 'DT_ERR_EXPR_UNSUPPORTED', '10n', /BigInt/],
    ['datapoint.value++', 'DT_ERR_EXPR_UNSUPPORTED', 'datapoint.value++', /\+\+ and --/],
    ['[...datapoint.value]', 'DT_ERR_EXPR_UNSUPPORTED', '...datapoint.value', /spread/],
  ])('rejects %s', (source, code, text, message) => {
    const error = errorOf(source);
    expect(error.code).toBe(code);
    expect(error.text).toBe(text);
    expect(error.message).toMatch(message);
  });

  it.each([
    ['eval("1")', 'eval'],
    ['Function("return 1")()', 'Function'],
    ['require("fs")', 'require'],
    ['process.exit()', 'process'],
    ['globalThis.process', 'globalThis'],
    ['constructor', 'constructor'],
    ['Object.keys(datapoint)', 'Object'],
  ])('does not know %s', (source, name) => {
    const error = errorOf(source);
    expect(['DT_ERR_EXPR_IDENTIFIER_UNKNOWN', 'DT_ERR_EXPR_CALL_UNSUPPORTED']).toContain(error.code);
    expect(error.name).toBe(name);
    expect(error.offset).toBe(source.indexOf(name));
  });

  it.each([
    ['datapoint.value.constructor', 'constructor'],
    ["datapoint.value['__proto__']", "'__proto__'"],
    ['datapoint.value.prototype', 'prototype'],
    ["'x'.constructor.constructor('return process')()", 'constructor'],
    ['[].constructor', 'constructor'],
  ])('refuses prototype access in %s', (source, text) => {
    const forbidden = issuesOf(source).find((issue) => issue.code === 'DT_ERR_EXPR_MEMBER_FORBIDDEN');
    expect(forbidden).toBeDefined();
    expect(source.slice(forbidden!.offset, forbidden!.offset + forbidden!.length)).toBe(text);
  });

  it.each([
    ['datapoint.value.toFixd(2)', 'toFixd', 'toFixed'],
    ['Math.rund(datapoint.value)', 'rund', 'round'],
    ['parseInteger(datapoint.value)', 'parseInteger', undefined],
    ['Strin(datapoint.value)', 'Strin', 'String'],
    ["datapoint.value['trim']()", "'trim'", undefined],
    ['datapoint.value.valueOf()', 'valueOf', undefined],
  ])('refuses the call in %s, pointing at %s', (source, text, suggestion) => {
    const error = errorOf(source);
    expect(error.code).toBe('DT_ERR_EXPR_CALL_UNSUPPORTED');
    expect(error.text).toBe(text);
    expect(error.suggestion).toBe(suggestion);
  });

  it('refuses Math.random with a reason', () => {
    expect(errorOf('Math.random() > 0.5').message).toMatch(/one result per input/);
  });

  it('reports wrong argument counts at the call', () => {
    const error = errorOf('datapoint.value.toFixed(1, 2) + Math.pow(2)');
    expect(error).toMatchObject({ code: 'DT_ERR_EXPR_ARITY', text: 'datapoint.value.toFixed(1, 2)' });
    expect(issuesOf('datapoint.value.toFixed(1, 2) + Math.pow(2)').map((i) => i.message)).toEqual([
      'toFixed() takes 0 to 1 arguments, got 2',
      'Math.pow() takes 2 arguments, got 1',
    ]);
  });

  it('allows a regex literal only as the receiver of test()', () => {
    expect(errorOf('/a/ == datapoint.value').code).toBe('DT_ERR_EXPR_REGEX_POSITION');
    expect(errorOf("/a/.exec('a')")).toMatchObject({ code: 'DT_ERR_EXPR_CALL_UNSUPPORTED', text: 'exec' });
  });

  it('reports every error of an expression, in source order', () => {
    const issues = issuesOf('foo + datapoint.valu + bar()');
    expect(issues.map((issue) => issue.code)).toEqual([
      'DT_ERR_EXPR_IDENTIFIER_UNKNOWN',
      'DT_ERR_EXPR_DATAPOINT_FIELD',
      'DT_ERR_EXPR_CALL_UNSUPPORTED',
    ]);
    expect(issues.map((issue) => issue.offset)).toEqual([0, 16, 23]);
  });
});

describe('compileExpression: syntax and limits', () => {
  it('points a syntax error at the offending character', () => {
    expect(errorOf('datapoint.value >')).toMatchObject({
      code: 'DT_ERR_EXPR_SYNTAX',
      offset: 17,
      message:
        "the expression ends at column 18; expected a value (a number, a 'string', datapoint.value, " +
        "datapoints.<id>.value, a /regex/ or a ( ... ) group) after '>'",
    });
    expect(errorOf("datapoint.value === 'abc")).toMatchObject({
      code: 'DT_ERR_EXPR_SYNTAX',
      offset: 20,
      message: 'unterminated string constant',
    });
  });

  it('names the unexpected token and the expected form', () => {
    expect(errorOf('datapoint.value +* 2')).toMatchObject({ offset: 17, text: '*' });
    expect(errorOf('datapoint.value +* 2').message).toMatch(
      /^unexpected '\*' at column 18; expected a value .* after '\+'$/,
    );
    expect(errorOf('(datapoint.value > 1').message).toBe(
      "the expression ends at column 21; expected ')' to close the '(' at column 1",
    );
    expect(errorOf('datapoint.value > 1 ? 1').message).toBe(
      "the expression ends at column 24; expected ':' and the value to use when the condition before '?' is false",
    );
    expect(errorOf('datapoint.').message).toBe(
      "the expression ends at column 11; expected a property or method name after '.'",
    );
  });

  it("refuses the published schema's example regex without slashes with a hint, and runs the suggested fix", () => {
    // The example of expressionDef in the published NetinDS schema: a pattern without its slashes,
    // which is no JavaScript expression (it starts with the '^' operator).
    const published = '(^(5|[5-9]\\d*)\\.(3|[3-9]\\d*)\\.(0|[1-9]\\d*)?$).test(datapoint.value)';
    const error = errorOf(published, BOOLEAN);
    expect(error).toMatchObject({ code: 'DT_ERR_EXPR_SYNTAX', offset: 1, text: '^' });
    expect(error.message).toContain('looks like a regular expression written without its slashes');
    expect(error.suggestion).toBe('/^(5|[5-9]\\d*)\\.(3|[3-9]\\d*)\\.(0|[1-9]\\d*)?$/.test(datapoint.value)');
    expect(evaluate(error.suggestion!, ctx('5.3.1'), BOOLEAN)).toBe(true);
    expect(evaluate(error.suggestion!, ctx('4.3.1'), BOOLEAN)).toBe(false);
    // Its other example is an ordinary expression.
    expect(issuesOf('datapoint.rawValue')).toEqual([]);
  });

  it('hints at slashes for other slashless patterns', () => {
    expect(errorOf('^up$.test(datapoint.value)', BOOLEAN).suggestion).toBe('/^up$/.test(datapoint.value)');
    expect(errorOf('\\d+.test(datapoint.value)', BOOLEAN).suggestion).toBe('/\\d+/.test(datapoint.value)');
    expect(errorOf('datapoint.value > 1 +', BOOLEAN).suggestion).toBeUndefined();
  });

  it('refuses a second statement after the expression', () => {
    expect(errorOf('datapoint.value; process')).toMatchObject({ code: 'DT_ERR_EXPR_SYNTAX', text: ';' });
    expect(errorOf('datapoint.value > 1 2')).toMatchObject({ code: 'DT_ERR_EXPR_SYNTAX', text: '2' });
  });

  it('accepts comments', () => {
    expect(evaluate('datapoint.value /* degrees */ + 1 // offset', ctx(1))).toBe(2);
  });

  it('refuses empty, too long and too deeply nested expressions', () => {
    expect(errorOf('   ').code).toBe('DT_ERR_EXPR_EMPTY');
    expect(errorOf('1+'.repeat(400) + '1')).toMatchObject({ code: 'DT_ERR_EXPR_TOO_LONG', offset: 800 });
    expect(errorOf('('.repeat(150) + '1' + ')'.repeat(150)).code).toBe('DT_ERR_EXPR_TOO_COMPLEX');
    expect(errorOf('!'.repeat(150) + 'datapoint.value').code).toBe('DT_ERR_EXPR_TOO_COMPLEX');
    expect(evaluate('('.repeat(40) + 'datapoint.value' + ')'.repeat(40), ctx(3))).toBe(3);
    expect(errorOf('datapoint.value' + ' + 1'.repeat(150)).code).toBe('DT_ERR_EXPR_TOO_COMPLEX');
  });

  it('uses only codes of the catalogue', () => {
    const sources = ['', 'a b', 'x', 'datapoint', '/(?=a)/.test(1)', 'this', 'datapoints.x', '1 + 1'];
    for (const source of sources) {
      for (const issue of issuesOf(source, BOOLEAN)) {
        expect(Object.keys(expressionProblems)).toContain(issue.code);
        expect(issue.severity).toBe(expressionProblems[issue.code as keyof typeof expressionProblems].severity);
      }
    }
  });
});

describe('compileExpression: datapoints', () => {
  it('reads the fields of the datapoint', () => {
    const context: EvaluationContext = { datapoint: { value: 7, rawValue: 70, quality: 'bad', timestamp: 5 } };
    expect(evaluate('[datapoint.value, datapoint.rawValue, datapoint.quality, datapoint.timestamp]', context)).toEqual([
      7,
      70,
      'bad',
      5,
    ]);
  });

  it('requires a known field and suggests the one meant', () => {
    expect(errorOf('datapoint > 3')).toMatchObject({ code: 'DT_ERR_EXPR_DATAPOINT_FIELD', text: 'datapoint' });
    expect(errorOf('datapoint.rawvalue')).toMatchObject({
      code: 'DT_ERR_EXPR_DATAPOINT_FIELD',
      text: 'rawvalue',
      suggestion: 'rawValue',
    });
    expect(errorOf('datapont.value')).toMatchObject({
      code: 'DT_ERR_EXPR_IDENTIFIER_UNKNOWN',
      text: 'datapont',
      suggestion: 'datapoint',
    });
  });

  it('reads other datapoints by id, including ids with # and &', () => {
    const context: EvaluationContext = {
      datapoint: { value: 1, rawValue: 1 },
      datapoints: { in: { value: 10, rawValue: 10 }, 'if#1&2': { value: 5, rawValue: 50 } },
    };
    const result = compileExpression("datapoints.in.value - datapoints['if#1&2'].rawValue + datapoints.in.value", {
      kind: 'value',
      datapointIds: ['in', 'if#1&2'],
    });
    expect(result.ok && result.expression.references.datapoints).toEqual(['in', 'if#1&2']);
    expect(result.ok && result.expression.evaluate(context)).toBe(-30);
  });

  it('reports unknown and malformed datapoint ids at the id', () => {
    const options: CompileOptions = { kind: 'value', datapointIds: ['inOctets', 'outOctets'] };
    expect(errorOf('datapoints.inOctet.value', options)).toMatchObject({
      code: 'DT_ERR_EXPR_DATAPOINT_UNKNOWN',
      text: 'inOctet',
      suggestion: 'inOctets',
    });
    expect(errorOf("datapoints['a b'].value", options)).toMatchObject({
      code: 'DT_ERR_EXPR_DATAPOINT_ID_INVALID',
      text: "'a b'",
    });
    expect(errorOf('datapoints[datapoint.value].value', options).code).toBe('DT_ERR_EXPR_DATAPOINT_ID_INVALID');
    expect(errorOf('datapoints.inOctets', options)).toMatchObject({ code: 'DT_ERR_EXPR_DATAPOINT_FIELD' });
    expect(errorOf('datapoints.inOctets.valeu', options)).toMatchObject({
      code: 'DT_ERR_EXPR_DATAPOINT_FIELD',
      suggestion: 'value',
    });
  });

  it('accepts any well-formed id when no list is given', () => {
    expect(compileExpression('datapoints.anything.value', VALUE).ok).toBe(true);
  });

  it('tells whether datapoint.rawValue is read', () => {
    const uses = (source: string) => {
      const result = compileExpression(source, VALUE);
      return result.ok && result.expression.references.usesRawValue;
    };
    expect(uses('datapoint.rawValue * 2')).toBe(true);
    expect(uses("datapoint['rawValue']")).toBe(true);
    expect(uses('datapoint.value * 2')).toBe(false);
  });

  it('fails the evaluation with a typed error when a datapoint is missing from the context', () => {
    const result = compileExpression('datapoints.other.value + 1', VALUE);
    if (!result.ok) throw new Error('compile');
    expect(thrownBy(() => result.expression.evaluate(ctx(1)))).toMatchObject({ code: 'DT_ERR_EVAL_DATAPOINT_MISSING' });
    expect(() => result.expression.evaluate(undefined as unknown as EvaluationContext)).toThrow(
      ExpressionEvaluationError,
    );
    const own = compileExpression('datapoint.value', VALUE);
    expect(thrownBy(() => own.ok && own.expression.evaluate({} as EvaluationContext))).toMatchObject({
      code: 'DT_ERR_EVAL_CONTEXT',
    });
    expect(thrownBy(() => own.ok && own.expression.evaluate(null as unknown as EvaluationContext))).toMatchObject({
      code: 'DT_ERR_EVAL_CONTEXT',
    });
  });
});

describe('compileExpression: boolean expressions', () => {
  it('refuses an expression that can never be boolean', () => {
    for (const source of [
      'datapoint.value * 2',
      "'down'",
      'datapoint.value.toFixed(1)',
      '`${datapoint.value}`',
      'datapoint.value - 1 || 0',
    ]) {
      expect(errorOf(source, BOOLEAN).code).toBe('DT_ERR_EXPR_NOT_BOOLEAN');
    }
  });

  it('accepts expressions that yield booleans', () => {
    for (const source of [
      'datapoint.value > 80',
      "datapoint.value === 'down'",
      '/^5\\./.test(datapoint.value)',
      '!datapoint.value',
      'datapoint.value.includes("x")',
      "typeof datapoint.value === 'number'",
    ]) {
      expect(issuesOf(source, BOOLEAN)).toEqual([]);
    }
  });

  it('warns when && or ?: can yield another value, and fails such an evaluation', () => {
    const source = 'datapoint.value && datapoint.value > 3';
    expect(issuesOf(source, BOOLEAN)).toEqual([
      expect.objectContaining({ code: 'DT_WARN_EXPR_MAYBE_NOT_BOOLEAN', offset: 0, length: source.length }),
    ]);
    expect(evaluate(source, ctx(5), BOOLEAN)).toBe(true);
    expect(thrownBy(() => evaluate(source, ctx(0), BOOLEAN))).toMatchObject({ code: 'DT_ERR_EVAL_NOT_BOOLEAN' });
  });

  it('warns about a constant result', () => {
    expect(issuesOf('1 > 2', BOOLEAN)).toEqual([expect.objectContaining({ code: 'DT_WARN_EXPR_CONSTANT_RESULT' })]);
  });

  it('fails at run time when a field holds no boolean', () => {
    expect(thrownBy(() => evaluate('datapoint.value', ctx('yes'), BOOLEAN))).toMatchObject({
      code: 'DT_ERR_EVAL_NOT_BOOLEAN',
    });
    expect(evaluate('datapoint.value', ctx(true), BOOLEAN)).toBe(true);
  });
});

describe('compileExpression: constants', () => {
  it('reports a constant part that always fails', () => {
    expect(errorOf("datapoint.value + 'ab'.repeat(40000)")).toMatchObject({
      code: 'DT_ERR_EXPR_CONSTANT_FAILS',
      text: "'ab'.repeat(40000)",
    });
    expect(errorOf('(1).toFixed(101)').message).toMatch(/between 0 and 100/);
  });

  it('folds constant parts without changing the result', () => {
    expect(evaluate('datapoint.value * (2 + 3) - -1', ctx(2))).toBe(11);
    expect(evaluate("[1, 2, 'a'].includes(datapoint.value)", ctx('a'))).toBe(true);
    expect(evaluate('Math.PI * 2 > datapoint.value', ctx(6))).toBe(true);
  });
});

describe('compileExpression: results', () => {
  it('are frozen, so a cached result can be shared', () => {
    const result = compileExpression('datapoint.value > 1 && datapoint.value', BOOLEAN);
    expect(Object.isFrozen(result)).toBe(true);
    expect(result.ok && Object.isFrozen(result.warnings)).toBe(true);
    expect(result.ok && Object.isFrozen(result.expression.references.datapoints)).toBe(true);
    const failed = compileExpression('datapoint.value >', BOOLEAN);
    expect(Object.isFrozen(failed)).toBe(true);
    expect(!failed.ok && Object.isFrozen(failed.issues[0])).toBe(true);
  });

  it('depend on the datapoint ids given, not on an earlier compilation', () => {
    expect(compileExpression('datapoints.x.value', { kind: 'value', datapointIds: ['x'] }).ok).toBe(true);
    expect(compileExpression('datapoints.x.value', { kind: 'value', datapointIds: ['y'] }).ok).toBe(false);
    expect(compileExpression('a', { kind: 'logic', symbols: ['a'] }).ok).toBe(true);
    expect(compileExpression('a', { kind: 'logic', symbols: ['b'] }).ok).toBe(false);
  });
});

describe('expression codes', () => {
  it('are pinned: a code never disappears or changes severity', () => {
    expect(Object.entries(expressionProblems).map(([code, definition]) => `${code}:${definition.severity}`)).toEqual([
      'DT_ERR_EXPR_EMPTY:error',
      'DT_ERR_EXPR_TOO_LONG:error',
      'DT_ERR_EXPR_TOO_COMPLEX:error',
      'DT_ERR_EXPR_SYNTAX:error',
      'DT_ERR_EXPR_UNSUPPORTED:error',
      'DT_ERR_EXPR_IDENTIFIER_UNKNOWN:error',
      'DT_ERR_EXPR_MEMBER_FORBIDDEN:error',
      'DT_ERR_EXPR_DATAPOINT_FIELD:error',
      'DT_ERR_EXPR_DATAPOINT_UNKNOWN:error',
      'DT_ERR_EXPR_DATAPOINT_ID_INVALID:error',
      'DT_ERR_EXPR_CALL_UNSUPPORTED:error',
      'DT_ERR_EXPR_ARITY:error',
      'DT_ERR_EXPR_REGEX_POSITION:error',
      'DT_ERR_EXPR_REGEX_FLAG:error',
      'DT_ERR_EXPR_REGEX_UNSUPPORTED:error',
      'DT_ERR_EXPR_REGEX_ESCAPE:error',
      'DT_ERR_EXPR_CONSTANT_FAILS:error',
      'DT_ERR_EXPR_NOT_BOOLEAN:error',
      'DT_ERR_EXPR_LOGIC_UNSUPPORTED:error',
      'DT_ERR_EXPR_SYMBOL_UNDECLARED:error',
      'DT_WARN_EXPR_SYMBOL_UNUSED:warning',
      'DT_WARN_EXPR_MAYBE_NOT_BOOLEAN:warning',
      'DT_WARN_EXPR_CONSTANT_RESULT:warning',
    ]);
    expect(Object.keys(expressionEvaluationErrors)).toEqual([
      'DT_ERR_EVAL_CONTEXT',
      'DT_ERR_EVAL_DATAPOINT_MISSING',
      'DT_ERR_EVAL_SYMBOL_MISSING',
      'DT_ERR_EVAL_NOT_BOOLEAN',
      'DT_ERR_EVAL_PROPERTY_OF_NULL',
      'DT_ERR_EVAL_METHOD_RECEIVER',
      'DT_ERR_EVAL_RANGE',
      'DT_ERR_EVAL_STRING_TOO_LONG',
      'DT_ERR_EVAL_VALUE_UNSUPPORTED',
    ]);
  });
});

describe('compile cache', () => {
  it('does not reuse a result compiled for other datapoint ids when datapoints is spelled with escapes', () => {
    const source = 'datapo\\u0069nts.x.value > 1';
    const forY = compileExpression(source, { kind: 'boolean', datapointIds: ['y'] });
    const forX = compileExpression(source, { kind: 'boolean', datapointIds: ['x'] });
    expect(forY.ok).toBe(false);
    expect(forX.ok).toBe(true);
  });
});
