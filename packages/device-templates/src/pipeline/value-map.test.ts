import { describe, expect, it } from 'vitest';
import { compileValueMap, NO_MATCH } from './value-map.js';

describe('compileValueMap', () => {
  const lookup = compileValueMap([
    { key: 1, value: 'up' },
    { key: '2', value: 'down' },
    { key: true, value: 'yes' },
    { key: 'idle', value: 0.5 },
  ]);

  it('maps a raw value of the same type and value', () => {
    expect(lookup(1)).toBe('up');
    expect(lookup('2')).toBe('down');
    expect(lookup(true)).toBe('yes');
    expect(lookup('idle')).toBe(0.5);
  });

  it('matches a number and its canonical text across types', () => {
    expect(lookup('1')).toBe('up');
    expect(lookup(2)).toBe('down');
  });

  it('does not match text that is not the canonical form of the number', () => {
    expect(lookup('01')).toBe(NO_MATCH);
    expect(lookup('1.0')).toBe(NO_MATCH);
    expect(lookup(' 1')).toBe(NO_MATCH);
  });

  it('matches booleans only with booleans', () => {
    expect(lookup('true')).toBe(NO_MATCH);
    expect(compileValueMap([{ key: true, value: 'yes' }])(1)).toBe(NO_MATCH);
    expect(compileValueMap([{ key: 1, value: 'one' }])(true)).toBe(NO_MATCH);
  });

  it('reports a miss for values that are not keys, objects and null', () => {
    expect(lookup(3)).toBe(NO_MATCH);
    expect(lookup({})).toBe(NO_MATCH);
    expect(lookup(null)).toBe(NO_MATCH);
  });

  it('prefers the exact-type key over the cross-type one, and the first of duplicate keys', () => {
    const map = compileValueMap([
      { key: '5', value: 'text five' },
      { key: 5, value: 'number five' },
      { key: 5, value: 'second number five' },
    ]);
    expect(map(5)).toBe('number five');
    expect(map('5')).toBe('text five');
  });

  it('skips entries without a key or a value', () => {
    const map = compileValueMap([{ value: 'orphan' }, { key: 'k' }, { key: 'k', value: 'v' }]);
    expect(map('k')).toBe('v');
  });
});
