import { describe, expect, it } from 'vitest';
import { problemCatalogue } from '../errors.js';
import { DEFAULT_LOAD_LIMITS, loadDocument } from './load-document.js';
import { loadProblems } from './load-problems.js';
import { placeOf, problemOf } from './test-support/problem-of.js';
import { documentFromValue } from './value-document.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('loadDocument: format detection', () => {
  it('uses options.format over the extension and the content', () => {
    const document = loadDocument('{"a": 1}', { file: 'x.yaml', format: 'json' });
    expect(document.format).toBe('json');
  });

  it.each([
    ['t.ndst.json', 'json'],
    ['T.JSON', 'json'],
    ['t.ndst.yml', 'yaml'],
    ['t.yaml', 'yaml'],
    ['t.YML', 'yaml'],
  ] as const)('chooses the format of %s from its extension (%s)', (file, format) => {
    // '{"a": 1}' is valid as both JSON and YAML, so only the extension can decide.
    expect(loadDocument('{"a": 1}', { file }).format).toBe(format);
  });

  it.each([
    ['{"a": 1}', 'json'],
    ['  \n\t[1, 2]', 'json'],
    ['a: 1', 'yaml'],
    ['# comment\n{"a": 1}', 'yaml'],
  ] as const)('sniffs %j as %s when there is no format and no known extension', (text, format) => {
    expect(loadDocument(text, { file: 'template.txt' }).format).toBe(format);
  });

  it('returns the file name given, or <input>', () => {
    expect(loadDocument('a: 1', { file: 'dir/t.yml' }).file).toBe('dir/t.yml');
    expect(loadDocument('a: 1').file).toBe('<input>');
  });
});

describe('loadDocument: size limit', () => {
  it('refuses bytes over maxBytes, stating the size and the limit', () => {
    const problem = problemOf(() =>
      loadDocument(utf8('{"a": "' + 'x'.repeat(200) + '"}'), { limits: { maxBytes: 100 } }),
    );
    expect(problem).toMatchObject({ code: 'DT_ERR_LOAD_TOO_LARGE', severity: 'error', path: '', line: 1, column: 1 });
    expect(problem.message).toContain('209 bytes');
    expect(problem.message).toContain('100 bytes');
    expect(problem.message).toContain('limits.maxBytes');
  });

  it('counts UTF-8 bytes, not characters, for text input', () => {
    const text = `{"a": "${'é'.repeat(40)}"}`; // 49 characters, 89 bytes
    expect(() => loadDocument(text, { limits: { maxBytes: 60 } })).toThrow(/89 bytes/);
    expect(loadDocument(text, { limits: { maxBytes: 89 } }).value).toEqual({ a: 'é'.repeat(40) });
  });

  it('accepts input exactly at the limit', () => {
    const bytes = utf8('{"a": 1}');
    expect(loadDocument(bytes, { limits: { maxBytes: bytes.byteLength } }).value).toEqual({ a: 1 });
  });

  it('defaults to 32 MiB, depth 64 and a bounded alias budget, frozen', () => {
    expect(DEFAULT_LOAD_LIMITS).toEqual({ maxBytes: 32 * 1024 * 1024, maxDepth: 64, maxAliasNodes: 100_000 });
    expect(Object.isFrozen(DEFAULT_LOAD_LIMITS)).toBe(true);
  });

  it('rejects a limit that is not a positive integer as a programming error', () => {
    expect(() => loadDocument('a: 1', { limits: { maxDepth: 0 } })).toThrow(RangeError);
    expect(() => loadDocument('a: 1', { limits: { maxBytes: 1.5 } })).toThrow(RangeError);
    expect(loadDocument('a: 1', { limits: { maxBytes: Number.POSITIVE_INFINITY } }).value).toEqual({ a: 1 });
  });
});

describe('loadDocument: encoding', () => {
  it('reports the line and column of the first byte that is not UTF-8', () => {
    const good = utf8('{\n  "name": "caf');
    const bytes = new Uint8Array([...good, 0xe9, ...utf8('"\n}')]); // Latin-1 é
    const problem = problemOf(() => loadDocument(bytes));
    expect(problem).toMatchObject({ code: 'DT_ERR_LOAD_ENCODING', line: 2, column: 15, found: '0xE9' });
    expect(problem.message).toMatch(/2:15 .*byte offset 16/);
    expect(problem.message).toContain('UTF-8');
  });

  it('counts columns in characters after multi-byte characters on the same line', () => {
    const bytes = new Uint8Array([...utf8('a: "ÄÖ'), 0xff, ...utf8('"\n')]);
    expect(problemOf(() => loadDocument(bytes))).toMatchObject({ code: 'DT_ERR_LOAD_ENCODING', line: 1, column: 7 });
  });

  it('refuses a character cut short at the end of the input', () => {
    const bytes = new Uint8Array([...utf8('a: x'), 0xe2, 0x82]);
    const problem = problemOf(() => loadDocument(bytes));
    expect(problem).toMatchObject({ code: 'DT_ERR_LOAD_ENCODING', line: 1, column: 5 });
    expect(problem.message).toContain('cut short');
  });

  it('points UTF-16 files at their encoding', () => {
    const problem = problemOf(() => loadDocument(new Uint8Array([0xff, 0xfe, 0x61, 0x00])));
    expect(problem.code).toBe('DT_ERR_LOAD_ENCODING');
    expect(problem.message).toContain('UTF-16');
  });

  it('strips a UTF-8 byte order mark from bytes and from text, keeping positions on the text', () => {
    const fromBytes = loadDocument(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('{"a": 1}')]));
    expect(fromBytes.value).toEqual({ a: 1 });
    expect(fromBytes.text).toBe('{"a": 1}');
    expect(fromBytes.positionOf(['a'])).toEqual({ line: 1, column: 7, offset: 6 });
    const fromText = loadDocument('\uFEFFa: 1\n');
    expect(fromText.text).toBe('a: 1\n');
    expect(fromText.format).toBe('yaml');
    expect(fromText.positionOf(['a'])).toEqual({ line: 1, column: 4, offset: 3 });
  });
});

describe('load problems catalogue', () => {
  it('lists every load code as an error in the package catalogue', () => {
    for (const [code, definition] of Object.entries(loadProblems)) {
      expect(code).toMatch(/^DT_ERR_LOAD_[A-Z_]+$/);
      expect(definition.severity).toBe('error');
      expect(problemCatalogue[code]).toEqual(definition);
    }
    expect(Object.keys(loadProblems)).toContain('DT_ERR_LOAD_SYNTAX');
  });
});

describe('documentFromValue', () => {
  it('answers 0:0 for every path, as a document without text', () => {
    const value = { a: [1, 2] };
    const document = documentFromValue(value, 'lib');
    expect(document.value).toBe(value);
    expect(document).toMatchObject({ file: 'lib', format: 'json', text: '' });
    expect(document.positionOf(['a', 1])).toEqual({ line: 0, column: 0, offset: 0 });
    expect(document.positionOf(['missing'], 'key')).toEqual({ line: 0, column: 0, offset: 0 });
  });
});

describe('positionOf', () => {
  it('never throws, whatever the path', () => {
    const text = 'a:\n  - {b: 1}\n';
    for (const document of [loadDocument(text), loadDocument('{"a": [{"b": 1}]}')]) {
      const odd = [[-1], [1.5], ['a', 'x'], ['a', '0', 'b', 'c'], [null, undefined, {}]] as unknown as (
        string | number
      )[][];
      for (const path of odd) expect(() => document.positionOf(path)).not.toThrow();
      expect(document.positionOf(['a', '0', 'b', 'c'])).toEqual(document.positionOf(['a', 0, 'b']));
    }
    expect(loadDocument(text).positionOf(['a', 0, 'b'])).toMatchObject(placeOf(text, '1'));
  });
});
