import { describe, expect, it } from 'vitest';
import { compareCodePoints } from './code-point-order.js';
import { searchWords } from './search-query.js';
import { parseSeqList } from './segments/seq-list.js';

describe('searchWords', () => {
  it('lower-cases, strips accents and splits at anything not a letter or digit', () => {
    expect(searchWords('Étiquettes WER-0000042, weiß/grün')).toEqual(['etiquettes', 'wer', '0000042', 'weiß', 'grun']);
  });

  it('splits the same whether marks or non-ASCII separators touch ASCII text', () => {
    expect(searchWords('a \u0301b e\u0301t abc\u2014def x\u037Ey')).toEqual(['a', 'b', 'et', 'abc', 'def', 'x', 'y']);
    // The same words a second time come from the cache.
    expect(searchWords('abc\u2014def')).toEqual(['abc', 'def']);
  });
});

describe('compareCodePoints', () => {
  it('orders by code point where UTF-16 units disagree', () => {
    const astral = '\u{1F600}';
    expect('\uFF01' < astral).toBe(false); // UTF-16 order
    expect(compareCodePoints('\uFF01', astral)).toBeLessThan(0);
    expect(['b', 'a:', 'a-b', 'a'].sort(compareCodePoints)).toEqual(['a', 'a-b', 'a:', 'b']);
    expect(compareCodePoints('x', 'x')).toBe(0);
  });
});

describe('parseSeqList', () => {
  it('reads group_concat output, large seqs exactly', () => {
    expect([...parseSeqList('1,4294967296,9007199254740991')]).toEqual([1, 4294967296, 9007199254740991]);
    expect(parseSeqList('')).toHaveLength(0);
  });
});
