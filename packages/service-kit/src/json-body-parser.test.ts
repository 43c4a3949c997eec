import { describe, expect, it } from 'vitest';
import { findForbiddenKey, measureJsonDepth, parseJsonBody } from './json-body-parser.js';
import { ProblemError } from './problem/problem-error.js';

describe('measureJsonDepth', () => {
  it.each([
    ['1', 0],
    ['{}', 1],
    ['[[], {"a": [1]}]', 3],
    ['{"a": "[[[[{{{{"}', 1],
    ['{"a": "quote \\" then [[["}', 1],
    ['{"a\\\\": [[]]}', 3],
  ])('measures %s as %i', (text, depth) => {
    expect(measureJsonDepth(text)).toBe(depth);
  });

  it('stops once past the limit', () => {
    expect(measureJsonDepth('['.repeat(100_000), 10)).toBe(11);
  });
});

describe('findForbiddenKey', () => {
  it('finds a nested own __proto__ key and gives its pointer', () => {
    expect(findForbiddenKey(JSON.parse('{"a": [0, {"__proto__": 1}]}'))).toBe('/a/1/__proto__');
  });

  it('accepts ordinary documents, including a "constructor" key', () => {
    expect(findForbiddenKey({ a: [{ constructor: 'x', proto: 1 }] })).toBeUndefined();
  });
});

describe('parseJsonBody', () => {
  it('parses well-formed JSON', () => {
    expect(parseJsonBody('{"a": [1, 2]}')).toEqual({ a: [1, 2] });
  });

  it('throws a 400 ProblemError for a too-deep body before parsing it', () => {
    let caught: unknown;
    try {
      parseJsonBody('['.repeat(1_000_000) + ']'.repeat(1_000_000), 64);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ProblemError);
    expect((caught as ProblemError).code).toBe('SVC_ERR_JSON_TOO_DEEP');
    expect((caught as ProblemError).status).toBe(400);
  });
});
