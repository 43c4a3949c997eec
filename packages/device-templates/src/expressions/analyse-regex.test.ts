import { describe, expect, it } from 'vitest';
import { analyseRegex } from './analyse-regex.js';

const plan = (pattern: string, flags = '') => analyseRegex(pattern, flags).plan;
const issues = (pattern: string, flags = '') => analyseRegex(pattern, flags).issues;

describe('analyseRegex: routing', () => {
  it.each([
    '(a+)+$',
    '(a|a)*b',
    '(.*a){20}',
    '(a*)*',
    '(x+x+)+y',
    '^(\\w+\\s?)+$',
    '^(a|aa)+$',
    '([a-z]?)+',
    '(?:a|b)+c',
  ])('sends the catastrophic pattern %s to RE2 only', (pattern) => {
    const result = plan(pattern);
    expect(result.nativeSource).toBeUndefined();
    expect(result.nativeMaxLength).toBe(-1);
    expect(result.re2Reason).toBeDefined();
  });

  it('runs an anchored pattern without quantifiers natively on any input length', () => {
    expect(plan('^5\\.')).toMatchObject({ nativeSource: '^5\\.', nativeMaxLength: Infinity });
  });

  it('bounds the native input length by the backtracking cost', () => {
    const unanchoredLiteral = plan('down|fail').nativeMaxLength;
    const unanchoredLoop = plan('\\d+\\.').nativeMaxLength;
    const anchoredLoop = plan('^\\d+$').nativeMaxLength;
    expect(unanchoredLiteral).toBeGreaterThan(1_000);
    expect(unanchoredLiteral).toBeLessThan(Infinity);
    // \d+\. is quadratic unanchored (each start re-scans the digits): short inputs only.
    expect(unanchoredLoop).toBeGreaterThan(10);
    expect(unanchoredLoop).toBeLessThan(unanchoredLiteral);
    expect(anchoredLoop).toBeGreaterThan(unanchoredLoop);
  });

  it('runs the schema example for versions natively on version-sized inputs', () => {
    const version = plan('^(5|[5-9]\\d*)\\.(3|[3-9]\\d*)\\.(0|[1-9]\\d*)?$');
    expect(version.nativeSource).toBe('^(?:5|[5-9]\\d*)\\.(?:3|[3-9]\\d*)\\.(?:0|[1-9]\\d*)?$');
    expect(version.nativeMaxLength).toBeGreaterThanOrEqual('5.10.12'.length);
  });

  it('sends to RE2 what the engines read differently', () => {
    expect(plan('^a$', 'm').re2Reason).toMatch(/m flag/);
    expect(plan('\\bup\\b', 'i').re2Reason).toMatch(/\\b with the i flag/);
    expect(plan('[[:alpha:]]').re2Reason).toMatch(/\[ inside a character class/);
    expect(plan('[^\\S]').re2Reason).toMatch(/\\S inside a character class/);
    expect(plan('\\p{L}', 'u').re2Reason).toMatch(/Unicode property/);
    expect(plan('[]a]').re2Reason).toMatch(/empty character class/);
  });

  it("rewrites \\s, \\S and . to RE2's meaning, and groups to non-capturing", () => {
    expect(plan('^\\s*(\\S+)\\.$').nativeSource).toBe('^[\\t\\n\\f\\r ]*(?:[^\\t\\n\\f\\r ]+)\\.$');
    expect(plan('a.c').nativeSource).toBe('a[^\\n]c');
    expect(plan('a.c', 's').nativeSource).toBe('a.c');
    expect(plan('[\\s,]').nativeSource).toBe('[\\t\\n\\f\\r ,]');
    expect(plan('(?<major>\\d)').nativeSource).toBe('(?:\\d)');
    expect(plan('a\\-b\\@').nativeSource).toBe('a-b@');
    expect(plan('a{').nativeSource).toBe('a\\{');
  });
});

/** Exactly one issue, with these fields and a message matching `message`. */
function expectOneIssue(found: readonly { readonly message: string }[], fields: object, message: RegExp): void {
  expect(found).toHaveLength(1);
  expect(found[0]).toMatchObject(fields);
  expect(found[0]?.message).toMatch(message);
}

describe('analyseRegex: issues', () => {
  it('refuses lookaround and backreferences, pointing inside the pattern', () => {
    expect(issues('a(?=b)')).toEqual([
      expect.objectContaining({ code: 'DT_ERR_EXPR_REGEX_UNSUPPORTED', offset: 1, length: 3 }),
    ]);
    expectOneIssue(issues('(?<!x)y'), { code: 'DT_ERR_EXPR_REGEX_UNSUPPORTED', offset: 0, length: 4 }, /lookbehind/);
    expectOneIssue(issues('(a)\\1'), { code: 'DT_ERR_EXPR_REGEX_UNSUPPORTED', offset: 3, length: 2 }, /backreference/);
    expect(issues('(?<n>a)\\k<n>')[0]).toMatchObject({ code: 'DT_ERR_EXPR_REGEX_UNSUPPORTED', offset: 7 });
  });

  it('refuses letter escapes whose meaning differs between engines', () => {
    for (const escape of ['\\z', '\\A', '\\a', '\\Q', '\\e']) {
      expect(issues(`x${escape}`)).toEqual([
        expect.objectContaining({ code: 'DT_ERR_EXPR_REGEX_ESCAPE', offset: 1, length: 2 }),
      ]);
    }
    expect(issues('\\p{L}')[0]).toMatchObject({ code: 'DT_ERR_EXPR_REGEX_ESCAPE' });
    expect(issues('\\p{L}')[0]?.message).toMatch(/u flag/);
    expect(issues('\\p{L}', 'u')).toEqual([]);
    expect(issues('\\012')[0]).toMatchObject({ code: 'DT_ERR_EXPR_REGEX_ESCAPE' });
    expect(issues('\\012')[0]?.message).toMatch(/octal/);
  });

  it('refuses the stateful g and y flags, pointing at the flag', () => {
    expectOneIssue(issues('a', 'gi'), { code: 'DT_ERR_EXPR_REGEX_FLAG', offset: 2, length: 1 }, /remember/);
    expect(issues('a', 'y')[0]).toMatchObject({ code: 'DT_ERR_EXPR_REGEX_FLAG' });
    expect(issues('a', 'ims')).toEqual([]);
  });
});
