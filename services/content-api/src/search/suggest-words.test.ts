import { describe, expect, it } from 'vitest';
import { TermDictionary } from './segments/term-dictionary.js';
import { splitLastWord, SuggestIndex, suggestWords, typoDistance } from './suggest-words.js';

const dictionary = new TermDictionary([
  ['bohrer', 120],
  ['bohrmaschine', 40],
  ['bohren', 60],
  ['bohrhammer', 60],
  ['bohr', 5],
  ['bolzen', 80],
  ['bohrer2000', 900],
  ['gruen', 3],
  ['grun', 7],
  ['schraubendreher', 30],
  ['schraubenzieher', 12],
  ['xohrer', 500],
]);

describe('splitLastWord', () => {
  it('keeps the typed text before the last word and says whether q ends in it', () => {
    expect(splitLastWord('Bosch Bohr')).toEqual({ before: 'Bosch ', word: 'bohr', open: true });
    expect(splitLastWord('Bosch, Bohrer ')).toEqual({ before: 'Bosch, ', word: 'bohrer', open: false });
    expect(splitLastWord('Kühl')).toEqual({ before: '', word: 'kuhl', open: true });
    expect(splitLastWord('  ,')).toBeUndefined();
  });
});

describe('typoDistance', () => {
  it('counts transpositions as one edit and an edit of the first letter as two', () => {
    expect(typoDistance('bohrre', 'bohrer')).toBe(1);
    expect(typoDistance('bohrrer', 'bohrer')).toBe(1);
    expect(typoDistance('xohrer', 'bohrer')).toBe(2);
    expect(typoDistance('schraubendrehr', 'schraubendreher')).toBe(1);
  });
});

describe('SuggestIndex', () => {
  it('gives the most frequent words of a prefix, without digits, one per folded key', () => {
    const index = new SuggestIndex(dictionary);
    const terms = (prefix: string, limit: number) =>
      index.mostFrequentWithPrefix(prefix, limit).map((i) => index.terms[i]);
    expect(terms('bohr', 3)).toEqual(['bohrer', 'bohren', 'bohrhammer']);
    expect(terms('bohr', 10)).toEqual(['bohrer', 'bohren', 'bohrhammer', 'bohrmaschine', 'bohr']);
    expect(terms('gr', 10)).toEqual(['grun']);
    expect(terms('zz', 10)).toEqual([]);
  });

  it('agrees with a sort of the whole range on a larger vocabulary', () => {
    const words: [string, number][] = [];
    for (let i = 0; i < 5000; i += 1)
      words.push([`w${String.fromCharCode(97 + (i % 26))}${i.toString(36)}x`, (i * 7919) % 301]);
    const big = new TermDictionary(words.filter(([w]) => !/\d/.test(w.slice(2, 3))));
    const index = new SuggestIndex(big);
    const { keys, articles } = big.sorted();
    const expected = keys
      .map((k, i) => ({ k, i, n: articles[i]! }))
      .filter((e) => e.k.startsWith('wq') && !/\d/.test(e.k))
      .sort((a, b) => b.n - a.n || a.i - b.i)
      .slice(0, 15)
      .map((e) => e.i);
    expect(index.mostFrequentWithPrefix('wq', 15)).toEqual(expected);
  });
});

describe('suggestWords', () => {
  it('completes the last word by articles, keeping the words before it', () => {
    const page = suggestWords([{ dictionary }], 'Bosch Bohr', 3);
    expect(page.completions).toEqual([
      { text: 'Bosch bohrer', hits: 120 },
      { text: 'Bosch bohren', hits: 60 },
      { text: 'Bosch bohrhammer', hits: 60 },
    ]);
    expect(page.corrections).toEqual([]);
  });

  it('completes from 2 letters, not after a separator, never a word with digits', () => {
    expect(suggestWords([{ dictionary }], 'b', 8).completions).toEqual([]);
    expect(suggestWords([{ dictionary }], 'bo', 1).completions).toEqual([{ text: 'bohrer', hits: 120 }]);
    expect(suggestWords([{ dictionary }], 'bohr ', 8).completions).toEqual([]);
    expect(suggestWords([{ dictionary }], 'bohrer2', 8)).toEqual({ completions: [], corrections: [] });
  });

  it('corrects by distance then articles, with the search typo rule', () => {
    expect(suggestWords([{ dictionary }], 'bohrrer', 8).corrections).toEqual([{ text: 'bohrer', hits: 120 }]);
    expect(suggestWords([{ dictionary }], 'bohrerr', 8).corrections).toEqual([{ text: 'bohrer', hits: 120 }]);
    // Four letters: no typos; the first letter counts as two edits, so xohrer is out with one edit allowed.
    expect(suggestWords([{ dictionary }], 'bohe', 8).corrections).toEqual([]);
    expect(suggestWords([{ dictionary }], 'schraubenzeiher', 8).corrections).toEqual([
      { text: 'schraubenzieher', hits: 12 },
    ]);
  });

  it('counts for the shop when told to, dropping words the shop lacks', () => {
    const shopHits = (term: string) => ({ bohrhammer: 9, bohren: 2 })[term] ?? 0;
    expect(suggestWords([{ dictionary, shopHits }], 'bohr', 8).completions).toEqual([
      { text: 'bohrhammer', hits: 9 },
      { text: 'bohren', hits: 2 },
    ]);
  });

  it('adds up the counts of several shops', () => {
    const other = new TermDictionary([
      ['bohrhammer', 100],
      ['bohrkrone', 70],
      ['bohrrer', 1],
    ]);
    const page = suggestWords([{ dictionary }, { dictionary: other }], 'bohr', 3);
    expect(page.completions).toEqual([
      { text: 'bohrhammer', hits: 160 },
      { text: 'bohrer', hits: 120 },
      { text: 'bohrkrone', hits: 70 },
    ]);
    expect(suggestWords([{ dictionary }, { dictionary: other }], 'bohrrer', 3).corrections).toEqual([
      { text: 'bohrer', hits: 120 },
    ]);
  });

  it('suggests nothing without a vocabulary or a word', () => {
    expect(suggestWords([], 'bohr', 8)).toEqual({ completions: [], corrections: [] });
    expect(suggestWords([{ dictionary }], '', 8)).toEqual({ completions: [], corrections: [] });
  });
});
