import { describe, expect, it } from 'vitest';
import { splitAtSpans, splitSnippet } from './highlight-spans.js';

describe('splitAtSpans', () => {
  it('marks the spans and keeps every character in order', () => {
    expect(splitAtSpans('Bosch Akkubohrer blau', [[6, 16]])).toEqual([
      { text: 'Bosch ', mark: false },
      { text: 'Akkubohrer', mark: true },
      { text: ' blau', mark: false },
    ]);
  });

  it('sorts, joins overlapping spans and ignores empty or out-of-range ones', () => {
    const parts = splitAtSpans('abcdefghij', [
      [8, 20],
      [1, 3],
      [2, 4],
      [5, 5],
      [-4, -1],
      [6, 4],
    ]);
    expect(parts).toEqual([
      { text: 'a', mark: false },
      { text: 'bcd', mark: true },
      { text: 'efgh', mark: false },
      { text: 'ij', mark: true },
    ]);
    expect(parts.map((p) => p.text).join('')).toBe('abcdefghij');
  });

  it('counts UTF-16 code units, as JavaScript strings do', () => {
    expect(splitAtSpans('🔩 Kühlbox', [[3, 10]])).toEqual([
      { text: '🔩 ', mark: false },
      { text: 'Kühlbox', mark: true },
    ]);
  });

  it('gives the whole text unmarked without spans', () => {
    expect(splitAtSpans('Bohrer', undefined)).toEqual([{ text: 'Bohrer', mark: false }]);
    expect(splitAtSpans('', [[0, 2]])).toEqual([]);
  });
});

describe('splitSnippet', () => {
  it('reads mark tags as marks and anything else as text', () => {
    expect(splitSnippet('…für <mark>Bohrer</mark> &amp; <b>Dübel</b>…')).toEqual([
      { text: '…für ', mark: false },
      { text: 'Bohrer', mark: true },
      { text: ' & <b>Dübel</b>…', mark: false },
    ]);
  });
});
