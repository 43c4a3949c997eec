import { describe, expect, it } from 'vitest';
import { isObject } from './is-object.js';

describe('isObject', () => {
  it('accepts what JSON.parse makes of an object, empty or not', () => {
    expect(isObject(JSON.parse('{}'))).toBe(true);
    expect(isObject(JSON.parse('{"a":[1],"b":null}'))).toBe(true);
    expect(isObject(Object.create(null))).toBe(true);
  });

  it('rejects null, arrays and every primitive', () => {
    for (const value of [null, undefined, [], [{}], 0, 1n, '', '{}', true, Symbol('x'), () => ({})]) {
      expect(isObject(value), String(typeof value)).toBe(false);
    }
  });

  it('narrows to a record whose properties can be read without a cast', () => {
    const parsed: unknown = JSON.parse('{"name":"pump","ports":2}');
    const name = isObject(parsed) ? parsed.name : undefined;
    expect(name).toBe('pump');
  });
});
