import { describe, expect, it } from 'vitest';
import { filterAcceptsDevice } from './match-device.js';
import { PatternCache } from './pattern-cache.js';

describe('filterAcceptsDevice', () => {
  const cache = new PatternCache();
  const compile = (p: string) => cache.get(p);

  it('accepts when every declared field matches', () => {
    expect(
      filterAcceptsDevice(
        { deviceID: '^0x0A0[1B]$', vendorID: '^0x002A$' },
        { deviceID: '0x0A0B', vendorID: '0x002A' },
        compile,
      ),
    ).toBe(true);
  });

  it('refuses when one declared field does not match', () => {
    expect(
      filterAcceptsDevice(
        { deviceID: '^0x0A01$', vendorID: '^0x002A$' },
        { deviceID: '0x0A01', vendorID: '0x0099' },
        compile,
      ),
    ).toBe(false);
  });

  it('refuses when the device did not send a declared field', () => {
    expect(filterAcceptsDevice({ deviceID: '^0x0A01$', vendorID: '^0x002A$' }, { deviceID: '0x0A01' }, compile)).toBe(
      false,
    );
  });

  it('ignores device fields the filter does not declare', () => {
    expect(
      filterAcceptsDevice(
        { description: 'SCALANCE X2' },
        { description: 'SIMATIC NET, SCALANCE X204-2', deviceID: '0x1' },
        compile,
      ),
    ).toBe(true);
  });

  it('never accepts without a filter or with an empty one', () => {
    expect(filterAcceptsDevice(null, { deviceID: '0x1' }, compile)).toBe(false);
    expect(filterAcceptsDevice({}, { deviceID: '0x1' }, compile)).toBe(false);
  });

  it('answers a catastrophic-backtracking pattern on a long non-matching input, correctly', () => {
    const input = 'a'.repeat(50_000) + 'b';
    expect(filterAcceptsDevice({ description: '^(a+)+$' }, { description: input }, compile)).toBe(false);
    expect(filterAcceptsDevice({ description: '^(a+)+$' }, { description: 'a'.repeat(50_000) }, compile)).toBe(true);
  });
});

describe('PatternCache', () => {
  it('compiles each pattern once', () => {
    let compiled = 0;
    const cache = new PatternCache({
      compile: (p) => {
        compiled++;
        return { test: (s: string) => s.includes(p) };
      },
    });
    cache.get('x');
    cache.get('x');
    cache.get('y');
    expect(compiled).toBe(2);
    expect(cache.size).toBe(2);
  });

  it('refuses patterns RE2 cannot run (lookbehind, backreference) and logs each once', () => {
    const warnings: object[] = [];
    const cache = new PatternCache({ log: { warn: (o) => warnings.push(o) } });
    expect(cache.get('(?<=a)b')).toBeUndefined();
    expect(cache.get('(?<=a)b')).toBeUndefined();
    expect(cache.get('(a)\\1')).toBeUndefined();
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatchObject({ pattern: '(?<=a)b' });
    expect(filterAcceptsDevice({ description: '(?<=a)b' }, { description: 'ab' }, (p) => cache.get(p))).toBe(false);
  });

  it('keeps at most maxSize patterns, compiling an evicted one again when asked', () => {
    const compiledPatterns: string[] = [];
    const cache = new PatternCache({
      maxSize: 2,
      compile: (p) => {
        compiledPatterns.push(p);
        return { test: (s: string) => s === p };
      },
    });
    cache.get('a');
    cache.get('b');
    cache.get('a'); // a is now the most recently used
    cache.get('c'); // evicts b
    expect(cache.size).toBe(2);
    expect(cache.get('a')?.test('a')).toBe(true);
    expect(cache.get('b')?.test('b')).toBe(true);
    expect(compiledPatterns).toEqual(['a', 'b', 'c', 'b']);
  });

  it('matches with real RE2 after many distinct patterns went through a small cache', () => {
    const cache = new PatternCache({ maxSize: 8 });
    for (let i = 0; i < 200; i++) expect(cache.get(`^dev-${i}$`)?.test(`dev-${i}`)).toBe(true);
    expect(cache.size).toBe(8);
    expect(cache.get('^dev-0$')?.test('dev-1')).toBe(false);
  });
});
