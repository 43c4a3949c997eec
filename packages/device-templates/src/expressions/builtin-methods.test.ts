import { thrownBy } from '@triad/common';
import { describe, expect, it } from 'vitest';
import { compileExpression } from './compile-expression.js';
import { EXPRESSION_LIMITS } from './expression-limits.js';

function run(source: string, value: unknown, rawValue: unknown = null): unknown {
  const result = compileExpression(source, { kind: 'value' });
  if (!result.ok) throw new Error(`${source}: ${JSON.stringify(result.issues)}`);
  return result.expression.evaluate({ datapoint: { value, rawValue } });
}

const MAX = EXPRESSION_LIMITS.maxStringLength;

describe('string methods', () => {
  // Each row: expression on datapoint.value, input, and the same call made on the real String.
  it.each([
    ["datapoint.value.includes('ow')", 'down', 'down'.includes('ow')],
    ["datapoint.value.startsWith('do')", 'down', true],
    ["datapoint.value.endsWith('wn', 3)", 'down', 'down'.endsWith('wn', 3)],
    ["datapoint.value.indexOf('o')", 'foo', 1],
    ["datapoint.value.lastIndexOf('o')", 'foo', 2],
    ['datapoint.value.toLowerCase()', 'DoWn', 'down'],
    ['datapoint.value.toUpperCase()', 'straße', 'STRASSE'],
    ['datapoint.value.trim()', '  x  ', 'x'],
    ['datapoint.value.trimStart()', '  x  ', 'x  '],
    ['datapoint.value.trimEnd()', '  x  ', '  x'],
    ['datapoint.value.slice(-2)', 'abcd', 'cd'],
    ['datapoint.value.substring(1, 3)', 'abcd', 'bc'],
    ['datapoint.value.charAt(1)', 'abcd', 'b'],
    ['datapoint.value.charCodeAt(0)', 'A', 65],
    ['datapoint.value.at(-1)', 'abcd', 'd'],
    ["datapoint.value.split('.')", '5.3.1', ['5', '3', '1']],
    ["datapoint.value.split('.', 2)", '5.3.1', ['5', '3']],
    ["datapoint.value.replace('.', ',')", '1.5.2', '1,5.2'],
    ["datapoint.value.replaceAll('.', ',')", '1.5.2', '1,5,2'],
    ["datapoint.value.replaceAll('', '-')", 'ab', '-a-b-'],
    ["datapoint.value.replace('$', '$&$$')", 'a$b', 'a$&$$b'],
    ["datapoint.value.padStart(5, '0')", '42', '00042'],
    ["datapoint.value.padEnd(4, '.')", 'ab', 'ab..'],
    ['datapoint.value.repeat(3)', 'ab', 'ababab'],
    ['datapoint.value.toString()', 'x', 'x'],
    ['datapoint.value.length', 'abc', 3],
  ])('%s on %j', (source, value, expected) => {
    expect(run(source, value)).toEqual(expected);
  });

  it('replace inserts the replacement literally ($ patterns are not expanded)', () => {
    expect(run("datapoint.value.replace('b', '[$&]')", 'abc')).toBe('a[$&]c');
  });

  it('converts arguments like JavaScript does', () => {
    expect(run('datapoint.value.includes(1)', 'a1')).toBe(true);
    expect(run('datapoint.value.indexOf(undefined)', 'xundefined')).toBe(1);
    expect(run("datapoint.value.endsWith('c', undefined)", 'abc')).toBe(true);
  });
});

describe('array and number methods', () => {
  it.each([
    ['datapoint.value.includes(2)', [1, 2], true],
    ["datapoint.value.indexOf('b')", ['a', 'b'], 1],
    ['datapoint.value.lastIndexOf(1)', [1, 2, 1], 2],
    ["datapoint.value.join('-')", [1, null, 'x'], '1--x'],
    ['datapoint.value.join()', [1, [2, 3]], '1,2,3'],
    ['datapoint.value.at(-1)', [1, 2, 3], 3],
    ['datapoint.value.slice(1)', [1, 2, 3], [2, 3]],
    ['datapoint.value.toString()', [1, 2], '1,2'],
    ['datapoint.value.length', [1, 2], 2],
    ['datapoint.value.toFixed(2)', 3.14159, '3.14'],
    ['datapoint.value.toFixed()', 2.5, (2.5).toFixed()],
    ['datapoint.value.toPrecision(3)', 1234.5, '1.23e+3'],
    ['datapoint.value.toString(16)', 255, 'ff'],
    ['datapoint.value.toString()', true, 'true'],
  ])('%s on %j', (source, value, expected) => {
    expect(run(source, value)).toEqual(expected);
  });

  it('does not mutate the receiver', () => {
    const value = [3, 1, 2];
    run('datapoint.value.slice(1).join()', value);
    expect(value).toEqual([3, 1, 2]);
  });
});

describe('functions', () => {
  it.each([
    ['String(datapoint.value)', 12, '12'],
    ['Number(datapoint.value)', ' 12 ', 12],
    ['Boolean(datapoint.value)', '', false],
    ['parseInt(datapoint.value)', '42px', 42],
    ['parseInt(datapoint.value, 16)', 'ff', 255],
    ['parseFloat(datapoint.value)', '3.5 V', 3.5],
    ['isNaN(datapoint.value)', 'x', true],
    ['isFinite(datapoint.value)', '1e3', true],
    ['Math.abs(datapoint.value)', -3, 3],
    ['Math.max(datapoint.value, 10)', 3, 10],
    ['Math.min(datapoint.value, 1, -2)', 3, -2],
    ['Math.max()', 0, -Infinity],
    ['Math.round(datapoint.value)', 2.5, 3],
    ['Math.pow(datapoint.value, 2)', 3, 9],
    ['Math.log10(datapoint.value)', 1000, 3],
    ['Math.sqrt(datapoint.value)', '16', 4],
    ['Math.trunc(datapoint.value)', -2.7, -2],
    ['Math.hypot(3, datapoint.value)', 4, 5],
    ['Math.PI', 0, Math.PI],
  ])('%s on %j', (source, value, expected) => {
    expect(run(source, value)).toEqual(expected);
  });
});

describe('method errors are typed', () => {
  it.each([
    ['datapoint.value.toFixed(2)', 'abc', /toFixed\(\) needs a number, got string/],
    ['datapoint.value.trim()', 5, /trim\(\) needs a string, got number/],
    ['datapoint.value.includes(1)', 5, /needs a string or an array, got number/],
    ['datapoint.value.join()', 'abc', /needs an array, got string/],
    ['datapoint.value.toUpperCase()', null, /got null/],
    ['datapoint.value.toUpperCase()', { a: 1 }, /got object/],
  ])('%s on %j: DT_ERR_EVAL_METHOD_RECEIVER', (source, value, message) => {
    expect(thrownBy(() => run(source, value))).toMatchObject({ code: 'DT_ERR_EVAL_METHOD_RECEIVER' });
    expect(() => run(source, value)).toThrow(message);
  });

  it.each([
    ['datapoint.value.toFixed(datapoint.rawValue)', 1, 101],
    ['datapoint.value.toString(datapoint.rawValue)', 1, 1],
    ['datapoint.value.toPrecision(datapoint.rawValue)', 1, 0],
    ['datapoint.value.repeat(datapoint.rawValue)', 'a', -1],
    ['datapoint.value.repeat(datapoint.rawValue)', 'a', Infinity],
  ])('%s with %j, %j: DT_ERR_EVAL_RANGE', (source, value, raw) => {
    expect(thrownBy(() => run(source, value, raw))).toMatchObject({ code: 'DT_ERR_EVAL_RANGE' });
  });

  it.each([
    ['datapoint.value.repeat(datapoint.rawValue)', 'ab', MAX],
    ['datapoint.value.padStart(datapoint.rawValue)', 'ab', MAX + 1],
    ["datapoint.value.replaceAll('a', datapoint.rawValue)", 'a'.repeat(1000), 'x'.repeat(100)],
    ["datapoint.value.replaceAll('', datapoint.rawValue)", 'a'.repeat(1000), 'x'.repeat(100)],
    ['datapoint.value.join(datapoint.rawValue)', Array.from({ length: 1000 }, () => 1), 'x'.repeat(100)],
    ["datapoint.value.split('')", 'a'.repeat(EXPRESSION_LIMITS.maxArrayLength + 1), null],
  ])('%s stops at the size limit', (source, value, raw) => {
    expect(thrownBy(() => run(source, value, raw))).toMatchObject({ code: 'DT_ERR_EVAL_STRING_TOO_LONG' });
  });

  it('builds strings right up to the limit', () => {
    expect(run('datapoint.value.repeat(datapoint.rawValue)', 'ab', MAX / 2)).toHaveLength(MAX);
    expect(run('datapoint.value.padEnd(datapoint.rawValue)', '', MAX)).toHaveLength(MAX);
  });
});
