import { describe, expect, it } from 'vitest';
import { loadDocument } from './load-document.js';
import { placeOf, problemOf } from './test-support/problem-of.js';

const json = (text: string, limits = {}) => loadDocument(text, { format: 'json', limits });

const TEMPLATE = `{
  "templateId": "acme-pump",
  "datapointSets": [
    {
      "datapointSetId": "main",
      "datapoints": [
        { "commonConfig": { "datapointId": "temp", "alias": "Temperature" } },
        { "commonConfig": { "datapointId": "flow", "alias": "Flow" }, "addressConfig": { "originAddress": "40001" } }
      ]
    }
  ],
  "tags": [[1, 2], [3, [4, 5]]],
  "empty": {},
  "none": null
}`;

describe('JSON positions', () => {
  const document = json(TEMPLATE);

  it('parses the value like JSON.parse', () => {
    expect(document.value).toEqual(JSON.parse(TEMPLATE));
    expect(document.format).toBe('json');
    expect(document.text).toBe(TEMPLATE);
  });

  it('places values and the keys naming them', () => {
    const path = ['datapointSets', 0, 'datapoints', 1, 'commonConfig', 'alias'];
    expect(document.positionOf(path)).toMatchObject(placeOf(TEMPLATE, '"Flow"'));
    expect(document.positionOf(path, 'key')).toMatchObject(placeOf(TEMPLATE, '"alias"', 1));
    expect(document.positionOf(['templateId'], 'key')).toMatchObject({ line: 2, column: 3 });
    expect(document.positionOf(['none'])).toMatchObject(placeOf(TEMPLATE, 'null'));
  });

  it('places containers at their opening bracket and the root at the first character', () => {
    expect(document.positionOf([])).toEqual({ line: 1, column: 1, offset: 0 });
    expect(document.positionOf(['datapointSets', 0, 'datapoints'])).toMatchObject({ line: 6, column: 21 });
    expect(document.positionOf(['empty'])).toMatchObject(placeOf(TEMPLATE, '{}'));
  });

  it('walks nested arrays by index', () => {
    expect(document.positionOf(['tags', 1, 1, 0])).toMatchObject(placeOf(TEMPLATE, '4, 5'));
    expect(document.positionOf(['tags', 0, 1])).toMatchObject(placeOf(TEMPLATE, '2]'));
  });

  it('accepts indexes as numeric strings', () => {
    const asNumbers = document.positionOf(['datapointSets', 0, 'datapoints', 1, 'addressConfig', 'originAddress']);
    const asStrings = document.positionOf(['datapointSets', '0', 'datapoints', '1', 'addressConfig', 'originAddress']);
    expect(asStrings).toEqual(asNumbers);
    expect(asNumbers).toMatchObject(placeOf(TEMPLATE, '"40001"'));
  });

  it('answers a missing path with its deepest existing ancestor', () => {
    const datapoint = document.positionOf(['datapointSets', 0, 'datapoints', 0]);
    expect(document.positionOf(['datapointSets', 0, 'datapoints', 0, 'addressConfig', 'originAddress'])).toEqual(
      datapoint,
    );
    expect(document.positionOf(['datapointSets', 0, 'datapoints', 7])).toEqual(
      document.positionOf(['datapointSets', 0, 'datapoints']),
    );
    expect(document.positionOf(['datapointSets', '00'])).toEqual(document.positionOf(['datapointSets']));
    expect(document.positionOf(['templateId', 'x'], 'key')).toEqual(document.positionOf(['templateId']));
    expect(document.positionOf(['nope'], 'key')).toEqual(document.positionOf([]));
  });

  it('gives the value position for "key" on an array element', () => {
    expect(document.positionOf(['tags', 1], 'key')).toEqual(document.positionOf(['tags', 1]));
  });

  it('finds keys written with escapes and keys holding quotes or slashes', () => {
    const text = '{"a\\"b": 1, "c\\/d": 2, "\\u00e9t\\u00e9": 3, "x\\\\": 4}';
    const document = json(text);
    expect(document.value).toEqual({ 'a"b': 1, 'c/d': 2, été: 3, 'x\\': 4 });
    expect(document.positionOf(['a"b'])).toMatchObject(placeOf(text, '1'));
    expect(document.positionOf(['c/d'], 'key')).toMatchObject(placeOf(text, '"c'));
    expect(document.positionOf(['été'])).toMatchObject(placeOf(text, '3'));
    expect(document.positionOf(['x\\'])).toMatchObject(placeOf(text, '4'));
  });

  it('looks keys up in source order, whatever order JavaScript gives integer-like keys', () => {
    const text = '{"b": 1, "2": 2, "1": 3}';
    expect(json(text).positionOf(['1'])).toMatchObject(placeOf(text, '3'));
    expect(json(text).positionOf(['2'], 'key')).toMatchObject(placeOf(text, '"2"'));
  });

  it('counts lines across CRLF and lone CR line breaks', () => {
    const text = '{\r\n  "a": 1,\r\n  "b": [\r    true\r\n  ]\r\n}';
    const document = json(text);
    expect(document.positionOf(['a'])).toMatchObject({ line: 2, column: 8 });
    expect(document.positionOf(['b', 0])).toMatchObject({ line: 4, column: 5 });
    expect(document.positionOf(['b'], 'key')).toMatchObject({ line: 3, column: 3 });
  });

  it('places a scalar root and string values holding brackets', () => {
    expect(json('  "x"').positionOf([])).toMatchObject({ line: 1, column: 3 });
    const text = '{"a": "[{,]}", "b": 2}';
    expect(json(text).positionOf(['b'])).toMatchObject(placeOf(text, '2'));
  });
});

describe('JSON load problems', () => {
  it('refuses a duplicate key, naming it and both places', () => {
    const text = '{\n  "a": 1,\n  "inner": {\n    "x": 1,\n    "x": 2\n  }\n}';
    const problem = problemOf(() => json(text));
    expect(problem).toMatchObject({
      code: 'DT_ERR_LOAD_DUPLICATE_KEY',
      severity: 'error',
      path: '/inner/x',
      line: 5,
      column: 5,
      found: 'x',
    });
    expect(problem.message).toContain('"x"');
    expect(problem.message).toContain('5:5');
    expect(problem.message).toContain('4:5');
  });

  it('refuses keys that only differ in their escapes', () => {
    const problem = problemOf(() => json('{"a": 1, "\\u0061": 2}'));
    expect(problem).toMatchObject({ code: 'DT_ERR_LOAD_DUPLICATE_KEY', path: '/a', line: 1, column: 10 });
  });

  it('refuses a duplicate key in an object with many keys', () => {
    const keys = Array.from({ length: 60 }, (_, i) => `"k${i}": ${i}`);
    const text = `{${keys.join(', ')}, "k17": 0}`;
    const problem = problemOf(() => json(text));
    expect(problem).toMatchObject({ code: 'DT_ERR_LOAD_DUPLICATE_KEY', path: '/k17', ...placeOf(text, '"k17"', 1) });
    expect(problem.message).toContain(`${placeOf(text, '"k17"').line}:${placeOf(text, '"k17"').column}`);
  });

  it('lets equal keys live in different objects', () => {
    expect(json('[{"a": 1}, {"a": 2}, {"b": {"a": 3}, "a": 4}]').value).toHaveLength(3);
  });

  it('refuses nesting deeper than maxDepth, accepting exactly maxDepth', () => {
    expect(json('[[[1]]]', { maxDepth: 3 }).value).toEqual([[[1]]]);
    const problem = problemOf(() => json('{"a": [{"b": [1]}]}', { maxDepth: 3 }));
    expect(problem).toMatchObject({ code: 'DT_ERR_LOAD_TOO_DEEP', path: '/a/0/b', line: 1, column: 14 });
    expect(problem.message).toContain('3 levels');
  });

  it('refuses a very deep document quickly, at the first level past the limit', () => {
    const text = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(problemOf(() => json(text))).toMatchObject({ code: 'DT_ERR_LOAD_TOO_DEEP', line: 1, column: 65 });
  });

  it('refuses a number too large to be finite', () => {
    const problem = problemOf(() => json('{"a": [1, 2e400]}'));
    expect(problem).toMatchObject({
      code: 'DT_ERR_LOAD_NOT_FINITE',
      path: '/a/1',
      line: 1,
      column: 11,
      found: '2e400',
    });
    expect(json('{"a": 1e300, "b": -1E-400}').value).toEqual({ a: 1e300, b: -0 });
  });

  it('refuses a blank document', () => {
    expect(problemOf(() => json(' \n\t'))).toMatchObject({ code: 'DT_ERR_LOAD_EMPTY', line: 1, column: 1 });
  });

  it.each([
    ['trailing comma', '{\n  "a": 1,\n}', 3, 1, ["Unexpected '}' at 3:1", 'trailing comma at 2:9']],
    [
      'missing comma',
      '{"a": 1\n "b": 2}',
      2,
      2,
      ["Unexpected '\"' at 2:2", "expected ',' or '}'", 'comma is probably missing'],
    ],
    ['comma instead of a value', '[1,\n  , 2]', 2, 3, ["Unexpected ',' at 2:3: expected a value"]],
    ['unclosed array', '{"a": [1, 2', 1, 12, ['end of input at 1:12', 'array opened at 1:7 is not closed']],
    ['single quotes', "{'a': 1}", 1, 2, ['double quotes']],
    ['unquoted key', '{name: 1}', 1, 2, ["Unexpected 'name' at 1:2", 'double quotes']],
    ['missing colon', '{"a" 1}', 1, 6, ['expected \':\' after the property name "a"']],
    ['line break in a string', '{"a": "x\ny"}', 1, 9, ['string starting at 1:7', 'cannot span lines']],
    ['bad escape', '{"a": "\\q"}', 1, 8, ["Invalid escape '\\q' at 1:8"]],
    ['short unicode escape', '{"a": "\\u12"}', 1, 8, ['4 hexadecimal digits']],
    ['unterminated string', '{"a": "abc', 1, 7, ['Unterminated string starting at 1:7']],
    ['leading zero', '{"a": 007}', 1, 7, ["Invalid number '007' at 1:7"]],
    ['leading plus', '[+1]', 1, 2, ["Unexpected '+' at 1:2"]],
    ['NaN', '{"a": NaN}', 1, 7, ["Unexpected 'NaN' at 1:7", 'no NaN']],
    ['capitalised literal', '[True]', 1, 2, ['lower case']],
    ['comment', '{"a": 1} // note', 1, 10, ['comments']],
    ['two values', '{}\n{}', 2, 1, ['exactly one value']],
  ] as const)('explains a syntax error: %s', (_name, text, line, column, fragments) => {
    const problem = problemOf(() => json(text));
    expect(problem).toMatchObject({ code: 'DT_ERR_LOAD_SYNTAX', severity: 'error', path: '', line, column });
    for (const fragment of fragments) expect(problem.message).toContain(fragment);
  });
});
