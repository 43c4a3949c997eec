import { describe, expect, it } from 'vitest';
import { loadDocument } from './load-document.js';
import { placeOf, problemOf } from './test-support/problem-of.js';

const yaml = (text: string, limits = {}) => loadDocument(text, { format: 'yaml', limits });

const TEMPLATE = `# yaml-language-server: $schema=https://example.com/device-template.json
templateId: acme-pump   # trailing comment
description: |
  First line
  second line
notes: >-
  folded
  text
'quoted key': "double
  quoted"
plain: one
  two three
released: 2021-01-01
answer: yes
hex: 0x1F
nothing:
tilde: ~
datapointSets:
  # a comment between entries
  - datapointSetId: main
    datapoints:
      - commonConfig: {datapointId: temp, alias: "Temperature", range: [0, 100]}
      -
      - commonConfig:
          datapointId: flow
    flow: [a, [b, c], {d: e}]
  - - nested
    - two
base: &base
  severity: 3
  text: Too hot
alarm: *base
? explicit
: value
pairs: [k: v, w]
`;

describe('YAML values', () => {
  const document = yaml(TEMPLATE);

  it('parses plain JSON data with the YAML 1.2 core schema', () => {
    const value = document.value as Record<string, unknown>;
    expect(value).toMatchObject({
      templateId: 'acme-pump',
      description: 'First line\nsecond line\n',
      notes: 'folded text',
      'quoted key': 'double quoted',
      plain: 'one two three',
      released: '2021-01-01', // no timestamp type: dates stay strings
      answer: 'yes', // no YAML 1.1 booleans
      hex: 31,
      nothing: null,
      tilde: null,
      explicit: 'value',
      pairs: [{ k: 'v' }, 'w'],
    });
    expect(value.alarm).toEqual({ severity: 3, text: 'Too hot' });
    expect(document.format).toBe('yaml');
  });
});

describe('YAML positions', () => {
  const document = yaml(TEMPLATE);
  const at = (needle: string, occurrence = 0) => placeOf(TEMPLATE, needle, occurrence);

  it('skips a leading comment to place the root', () => {
    expect(document.positionOf([])).toMatchObject(at('templateId'));
  });

  it('places plain scalars and their keys, ignoring trailing comments', () => {
    expect(document.positionOf(['templateId'])).toMatchObject(at('acme-pump'));
    expect(document.positionOf(['templateId'], 'key')).toMatchObject({ line: 2, column: 1 });
  });

  it('places block scalars at their indicator', () => {
    expect(document.positionOf(['description'])).toMatchObject(at('|'));
    expect(document.positionOf(['notes'])).toMatchObject(at('>-'));
    expect(document.positionOf(['notes'], 'key')).toMatchObject(at('notes'));
  });

  it('places quoted keys, multi-line quoted and multi-line plain scalars', () => {
    expect(document.positionOf(['quoted key'], 'key')).toMatchObject(at("'quoted key'"));
    expect(document.positionOf(['quoted key'])).toMatchObject(at('"double'));
    expect(document.positionOf(['plain'])).toMatchObject(at('one'));
  });

  it('places an empty value just after its colon and a tilde at the tilde', () => {
    expect(document.positionOf(['nothing'])).toMatchObject({
      line: at('nothing:').line,
      column: 'nothing:'.length + 1,
    });
    expect(document.positionOf(['tilde'])).toMatchObject(at('~'));
  });

  it('places block sequences, their entries and null entries written as a bare dash', () => {
    const datapoints = ['datapointSets', 0, 'datapoints'];
    expect(document.positionOf(['datapointSets'])).toMatchObject(at('- datapointSetId'));
    expect(document.positionOf(['datapointSets', 0])).toMatchObject(at('datapointSetId'));
    expect(document.positionOf([...datapoints, 0])).toMatchObject(at('commonConfig'));
    expect(document.positionOf([...datapoints, 1])).toMatchObject({ line: at('      -\n').line, column: 7 });
    expect(
      (document.value as { datapointSets: { datapoints: unknown[] }[] }).datapointSets[0]?.datapoints[1],
    ).toBeNull();
    expect(document.positionOf([...datapoints, 2, 'commonConfig', 'datapointId'])).toMatchObject(at('flow', 0));
  });

  it('places values inside flow collections', () => {
    const common = ['datapointSets', 0, 'datapoints', 0, 'commonConfig'];
    expect(document.positionOf([...common, 'datapointId'])).toMatchObject(at('temp,'));
    expect(document.positionOf([...common, 'alias'])).toMatchObject(at('"Temperature"'));
    expect(document.positionOf([...common, 'alias'], 'key')).toMatchObject(at('alias'));
    expect(document.positionOf([...common, 'range', 1])).toMatchObject(at('100'));
    expect(document.positionOf(['datapointSets', 0, 'flow', 1, 1])).toMatchObject(at('c]'));
    expect(document.positionOf(['datapointSets', 0, 'flow', 2, 'd'])).toMatchObject(at('e}'));
  });

  it('places entries of compact nested sequences', () => {
    expect(document.positionOf(['datapointSets', 1])).toMatchObject(at('- nested'));
    expect(document.positionOf(['datapointSets', 1, 1])).toMatchObject(at('two\nbase'));
  });

  it('follows an alias to where the anchored value is written', () => {
    expect(document.positionOf(['alarm'])).toMatchObject(at('*base'));
    expect(document.positionOf(['alarm', 'text'])).toMatchObject(at('Too hot'));
    expect(document.positionOf(['alarm', 'severity'], 'key')).toMatchObject(at('severity'));
    expect(document.positionOf(['base'])).toMatchObject(at('&base'));
  });

  it('places explicit keys and one-pair mappings inside flow sequences', () => {
    expect(document.positionOf(['explicit'], 'key')).toMatchObject(at('explicit'));
    expect(document.positionOf(['explicit'])).toMatchObject(at('value'));
    expect(document.positionOf(['pairs', 0])).toMatchObject(at('k: v'));
    expect(document.positionOf(['pairs', 0, 'k'])).toMatchObject(at('v, w'));
    expect(document.positionOf(['pairs', 1])).toMatchObject(at('w]'));
  });

  it('accepts numeric-string indexes and answers missing paths with the deepest existing ancestor', () => {
    const path = ['datapointSets', '0', 'datapoints', '2', 'commonConfig', 'datapointId'];
    expect(document.positionOf(path)).toEqual(document.positionOf(path.map((s) => (/^\d+$/.test(s) ? Number(s) : s))));
    expect(document.positionOf(['datapointSets', 0, 'datapoints', 0, 'addressConfig'])).toEqual(
      document.positionOf(['datapointSets', 0, 'datapoints', 0]),
    );
    expect(document.positionOf(['datapointSets', 5, 'x'])).toEqual(document.positionOf(['datapointSets']));
    expect(document.positionOf(['templateId', 'deeper'], 'key')).toEqual(document.positionOf(['templateId']));
    expect(document.positionOf(['datapointSets', 0, 'datapoints', 1, 'x'])).toEqual(
      document.positionOf(['datapointSets', 0, 'datapoints', 1]),
    );
  });

  it('counts lines across CRLF line breaks', () => {
    const text = 'a: 1\r\nlist:\r\n  - x\r\n  - y # note\r\nm:\r\n  k: "v"\r\n';
    const document = yaml(text);
    expect(document.value).toEqual({ a: 1, list: ['x', 'y'], m: { k: 'v' } });
    expect(document.positionOf(['list', 1])).toMatchObject({ line: 4, column: 5 });
    expect(document.positionOf(['m', 'k'])).toMatchObject({ line: 6, column: 6 });
    expect(document.positionOf(['m', 'k'], 'key')).toMatchObject({ line: 6, column: 3 });
  });

  it('places a root flow mapping and a root sequence', () => {
    expect(yaml('  {a: [1, 2]}').positionOf(['a', 1])).toMatchObject({ line: 1, column: 11 });
    const text = '- a\n- b: 1\n  c: 2\n';
    expect(yaml(text).positionOf([1, 'c'])).toMatchObject({ line: 3, column: 6 });
    expect(yaml(text).positionOf([1, 'c'], 'key')).toMatchObject({ line: 3, column: 3 });
  });
});

describe('YAML load problems', () => {
  it('refuses a duplicate key, naming it and both places', () => {
    const text = 'a: 1\nm:\n  x: 1\n  y: 2\n  x: 3\n';
    const problem = problemOf(() => yaml(text));
    expect(problem).toMatchObject({ code: 'DT_ERR_LOAD_DUPLICATE_KEY', path: '/m/x', line: 5, column: 3, found: 'x' });
    expect(problem.message).toContain('"x"');
    expect(problem.message).toContain('5:3');
    expect(problem.message).toContain('3:3');
  });

  it('refuses duplicate keys in flow mappings and between plain and quoted spellings', () => {
    expect(problemOf(() => yaml('{a: 1, "a": 2}'))).toMatchObject({
      code: 'DT_ERR_LOAD_DUPLICATE_KEY',
      line: 1,
      column: 8,
    });
  });

  it.each([
    ['a number', 'a: 1\n1: x\n', 2, 1, "'1'"],
    ['a boolean', 'm:\n  true: x\n', 2, 3, "'true'"],
    ['null', '~: x\n', 1, 1, 'null'],
    ['a sequence', '? [a, b]\n: x\n', 1, 3, 'sequence'],
    ['missing in a flow mapping', '{: x}', 1, 2, 'null'],
  ] as const)('refuses a key that is %s', (_name, text, line, column, fragment) => {
    const problem = problemOf(() => yaml(text));
    expect(problem).toMatchObject({ code: 'DT_ERR_LOAD_KEY_NOT_STRING', line, column });
    expect(problem.message).toContain(fragment);
  });

  it('accepts quoted keys that look like numbers', () => {
    expect(yaml('\'1\': x\n"true": y\n').value).toEqual({ 1: 'x', true: 'y' });
  });

  it('refuses a merge key but accepts a quoted "<<" key', () => {
    const text = 'base: &b {a: 1}\nitem:\n  <<: *b\n  c: 2\n';
    const problem = problemOf(() => yaml(text));
    expect(problem).toMatchObject({ code: 'DT_ERR_LOAD_MERGE_KEY', path: '/item', line: 3, column: 3 });
    expect(yaml("'<<': 1\n").value).toEqual({ '<<': 1 });
  });

  it.each([
    ['a custom tag', 'a: !custom value\n', '!custom', 1, 4],
    ['a binary tag', 'a:\n  b: !!binary aGVsbG8=\n', '!!binary', 2, 6],
    ['a timestamp tag', 'a: !!timestamp 2021-01-01\n', '!!timestamp', 1, 4],
    ['a tag on a mapping', 'a: !!set {x: null}\n', '!!set', 1, 4],
  ] as const)('refuses %s', (_name, text, tag, line, column) => {
    const problem = problemOf(() => yaml(text));
    expect(problem).toMatchObject({ code: 'DT_ERR_LOAD_TAG', line, column, found: tag });
  });

  it('accepts the JSON-compatible core tags', () => {
    expect(
      yaml(
        'a: !!str 12\nb: !!int "7"\nc: !!float 1\nd: !!bool true\ne: !!null ~\nf: !!seq [1]\ng: !!map {x: 1}\nh: ! 5\n',
      ).value,
    ).toEqual({
      a: '12',
      b: 7,
      c: 1,
      d: true,
      e: null,
      f: [1],
      g: { x: 1 },
      h: '5',
    });
  });

  it.each([
    ['.inf', 'a: [1, .inf]\n', '/a/1', 1, 8, 'infinite'],
    ['-.Inf', 'a: -.Inf\n', '/a', 1, 4, 'infinite'],
    ['.nan', 'x:\n  y: .NaN\n', '/x/y', 2, 6, 'NaN'],
  ] as const)('refuses %s', (_name, text, path, line, column, fragment) => {
    const problem = problemOf(() => yaml(text));
    expect(problem).toMatchObject({ code: 'DT_ERR_LOAD_NOT_FINITE', path, line, column });
    expect(problem.message).toContain(fragment);
  });

  it('refuses more than one document, pointing at the separator', () => {
    const problem = problemOf(() => yaml('---\na: 1\n---\nb: 2\n'));
    expect(problem).toMatchObject({ code: 'DT_ERR_LOAD_MULTIPLE_DOCUMENTS', line: 3, column: 1, found: 2 });
    expect(yaml('---\na: 1\n...\n').value).toEqual({ a: 1 });
  });

  it('refuses a document without content', () => {
    for (const text of ['', '# only a comment\n', '---\n']) {
      expect(problemOf(() => yaml(text))).toMatchObject({ code: 'DT_ERR_LOAD_EMPTY', line: 1, column: 1 });
    }
    expect(yaml('null\n').value).toBeNull();
  });

  it('refuses a billion-laughs alias bomb while parsing', () => {
    let text = 'l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n';
    for (let i = 1; i <= 9; i += 1)
      text += `l${i}: &l${i} [${Array(9)
        .fill(`*l${i - 1}`)
        .join(', ')}]\n`;
    const problem = problemOf(() => yaml(text));
    expect(problem.code).toBe('DT_ERR_LOAD_ALIAS_LIMIT');
    expect(problem.message).toContain('100000');
    // The budget is passed within the first levels, long before the 9^9 expansion.
    expect(problem.line).toBeLessThan(7);
    expect(problem.message).toContain(`*l${problem.line - 2}`);
  });

  it('accepts aliases within the budget and refuses the same document under a smaller one', () => {
    const text = 'base: &b {x: 1, y: [1, 2]}\nlist:\n' + '  - *b\n'.repeat(50);
    expect((yaml(text).value as { list: unknown[] }).list).toHaveLength(50);
    expect(problemOf(() => yaml(text, { maxAliasNodes: 100 }))).toMatchObject({ code: 'DT_ERR_LOAD_ALIAS_LIMIT' });
  });

  it('charges an alias once, also when it stands alone on its line', () => {
    // [1, 2] is 3 nodes (the sequence and two scalars).
    for (const text of ['a: &x [1, 2]\nb: *x\n', 'a: &x [1, 2]\nb:\n  *x\n']) {
      expect(yaml(text, { maxAliasNodes: 3 }).value).toEqual({ a: [1, 2], b: [1, 2] });
      expect(problemOf(() => yaml(text, { maxAliasNodes: 2 })).code).toBe('DT_ERR_LOAD_ALIAS_LIMIT');
    }
  });

  it('refuses an alias to its own ancestor', () => {
    const problem = problemOf(() => yaml('a: &a\n  b: *a\n'));
    expect(problem).toMatchObject({ code: 'DT_ERR_LOAD_ALIAS_CYCLE', line: 2, column: 6 });
  });

  it('refuses nesting deeper than maxDepth, accepting exactly maxDepth', () => {
    expect(yaml('a:\n  b:\n    - 1\n', { maxDepth: 3 }).value).toEqual({ a: { b: [1] } });
    const problem = problemOf(() => yaml('a:\n  b:\n    - [1]\n', { maxDepth: 3 }));
    expect(problem).toMatchObject({ code: 'DT_ERR_LOAD_TOO_DEEP', path: '/a/b/0', line: 3, column: 7 });
  });

  it('counts the depth of aliased values where they are used', () => {
    let text = 'l0: &l0 [x]\n';
    for (let i = 1; i <= 5; i += 1) text += `l${i}: &l${i} [*l${i - 1}]\n`;
    // l4 is the root mapping, its own sequence, then l3's four levels: 6 > 5.
    expect(problemOf(() => yaml(text, { maxDepth: 5 }))).toMatchObject({
      code: 'DT_ERR_LOAD_TOO_DEEP',
      path: '/l4/0',
      line: 5,
      column: 10,
    });
    expect(yaml(text, { maxDepth: 7 }).value).toBeTruthy();
  });

  it('refuses very deep flow nesting without exhausting the stack', () => {
    const text = 'a: ' + '['.repeat(5000) + ']'.repeat(5000) + '\n';
    expect(problemOf(() => yaml(text)).code).toBe('DT_ERR_LOAD_TOO_DEEP');
  });

  it.each([
    ['bad indentation', 'a: 1\n b: 2\n', 2, 3, 'bad indentation'],
    ['a tab in indentation', 'a:\n\tb: 1\n', 2, 1, 'indent with spaces'],
    ['an unclosed quote', 'a: "abc\nb: 1\n', 3, 1, 'closing "'],
    ['an unclosed flow sequence', 'a: [1, 2\n', 2, 1, 'closing bracket'],
    ['an unknown alias', 'a: *missing\n', 1, 12, 'define the anchor'],
    ['a mapping on a value line', 'a: b: c\n', 1, 5, 'bad indentation'],
  ] as const)('explains a syntax error: %s', (_name, text, line, column, fragment) => {
    const problem = problemOf(() => yaml(text));
    expect(problem).toMatchObject({ code: 'DT_ERR_LOAD_SYNTAX', path: '', line, column });
    expect(problem.message).toContain(`${line}:${column}`);
    expect(problem.message).toContain(fragment);
  });
});
