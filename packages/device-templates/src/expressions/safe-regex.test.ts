import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { compileRegex, type SafeRegex } from './safe-regex.js';

const { RE2 } = createRequire(import.meta.url)('re2-wasm') as {
  RE2: new (pattern: string, flags: string) => { test(s: string): boolean };
};

function compiled(pattern: string, flags = ''): SafeRegex {
  const result = compileRegex(pattern, flags);
  if (!result.ok) throw new Error(`${pattern}: ${JSON.stringify(result.issues)}`);
  return result.regex;
}

const PATTERNS: readonly [string, string][] = [
  ['^5\\.', ''],
  ['\\s', ''],
  ['^\\S+$', ''],
  ['a.c', ''],
  ['a.c', 's'],
  ['[\\s\\d]+', ''],
  ['^(5|[5-9]\\d*)\\.(3|[3-9]\\d*)\\.(0|[1-9]\\d*)?$', ''],
  ['down|fail', ''],
  ['^up$', 'i'],
  ['straße', 'i'],
  ['k', 'i'],
  ['\\bword\\b', ''],
  ['[^a-z]', ''],
  ['^.$', ''],
  ['\\u0041\\x42', ''],
  ['a{2,3}', ''],
  ['^$', ''],
  ['\\w+', 'i'],
];
const INPUTS: readonly string[] = [
  'a c',
  'a\rc',
  'a\nc',
  '\u00a0',
  ' ',
  '\t',
  '\v',
  '\f',
  '5.3.1',
  '5.10.',
  '55',
  'UP',
  'up',
  'word',
  'a word here',
  'swordfish',
  'STRASSE',
  'Straße',
  'ſ',
  '\u212a',
  '',
  'aa',
  'aaa',
  'AB',
  'É',
  '😀',
  '\u2028',
  'fail!',
  'x',
];

describe('SafeRegex', () => {
  it.each(PATTERNS)("gives RE2's answer on the native path for /%s/%s", (pattern, flags) => {
    const regex = compiled(pattern, flags);
    const re2 = new RE2(pattern, flags + 'u');
    for (const input of INPUTS) {
      expect(regex.engineFor(input.length)).toBe('native');
      expect([input, regex.test(input)]).toEqual([input, re2.test(input)]);
    }
  });

  it('switches to RE2 past the native length bound, with the same answers', () => {
    const regex = compiled('\\d+\\.');
    const long = '1'.repeat(50_000) + 'x';
    expect(regex.engineFor(long.length)).toBe('re2');
    expect(regex.test(long)).toBe(false);
    expect(regex.test(long + '1.')).toBe(true);
  });

  it('runs catastrophic patterns on RE2 whatever the input', () => {
    for (const pattern of ['(a+)+$', '(a|a)*b', '(.*a){20}']) {
      const regex = compiled(pattern);
      expect(regex.engineFor(1)).toBe('re2');
      expect(regex.test('a'.repeat(24) + '!')).toBe(new RE2(pattern, 'u').test('a'.repeat(24) + '!'));
    }
  });

  it('reports what RE2 refuses, over the whole pattern', () => {
    const result = compileRegex('a{1001}', '');
    expect(result.ok).toBe(false);
    const issue = result.ok ? undefined : result.issues[0];
    expect(issue).toMatchObject({ code: 'DT_ERR_EXPR_REGEX_UNSUPPORTED', offset: 0, length: 7 });
    expect(issue?.message).toMatch(/^RE2 cannot run this pattern: /);
  });
});
