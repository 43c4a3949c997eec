import { describe, expect, it } from 'vitest';
import { countRunWords, markRunWords, ShopWordCounter, ShopWordCounts } from './shop-word-counts.js';

/** Articles with the words of `texts`; each run of `runs` (lengths, in order) marked with its counted words. */
function articlesInRuns(texts: readonly string[], runs: readonly number[]): { id: string; searchText: string }[] {
  const articles = texts.map((searchText, i) => ({ id: `shop:${i}`, searchText }));
  let at = 0;
  for (const length of runs) {
    const run = articles.slice(at, at + length);
    const counted = countRunWords(run.map((a) => a.searchText));
    markRunWords(run[0]!, { articles: length, lastId: run[length - 1]!.id, ...counted });
    at += length;
  }
  return articles;
}

/** What `ShopWordCounts.add` of the articles not refused gives, stored. */
function eachAdded(texts: readonly string[], refused: ReadonlySet<number> = new Set()): string {
  const words = new ShopWordCounts();
  texts.forEach((text, i) => {
    if (!refused.has(i)) words.add(text);
  });
  return words.encode().toString();
}

describe('ShopWordCounts', () => {
  it('counts each word once per article and leaves out words with digits', () => {
    const words = new ShopWordCounts();
    words.add('blue pen blue m8 pen');
    words.add('red pen');
    expect(Object.fromEntries(words.entries())).toEqual({ blue: 1, pen: 2, red: 1 });
    expect(words.get('pen')).toBe(2);
    expect(words.get('m8')).toBe(0);
  });

  it('takes an article away again and forgets words no article holds', () => {
    const words = new ShopWordCounts();
    words.add('blue pen');
    words.add('red pen');
    words.add('red pen', -1);
    expect(Object.fromEntries(words.entries())).toEqual({ blue: 1, pen: 1 });
    expect(words.size).toBe(2);
  });

  it('takes a repeated word away once and never counts words with digits below zero', () => {
    const words = new ShopWordCounts();
    words.add('pen pen m8 blue');
    words.add('pen pen blue');
    words.add('pen pen m8 m8', -1);
    words.add('m8 red', -1);
    expect(Object.fromEntries(words.entries())).toEqual({ pen: 1, blue: 2 });
  });

  it('survives being stored, words beyond ASCII included', () => {
    const words = new ShopWordCounts();
    for (const text of ['grün weiß', 'grün straße', 'étiquette', '']) words.add(text);
    const read = ShopWordCounts.decode(new Uint8Array(words.encode()));
    expect(Object.fromEntries(read.entries())).toEqual({ grün: 2, weiß: 1, straße: 1, étiquette: 1 });
    expect(ShopWordCounts.decode(new Uint8Array(0)).size).toBe(0);
  });

  it('refuses damaged stored words', () => {
    expect(() => ShopWordCounts.decode(Buffer.from('pen 2\nblue'))).toThrow(/import the shop again/);
  });

  describe('ShopWordCounter', () => {
    const texts = ['blue pen', 'red pen pen m8', 'blue ink 12', '', 'green pen', 'ink red', 'grün weiß pen', 'blue'];

    it('counts runs of articles as adding each article would, the order words came in too', () => {
      const counter = new ShopWordCounter();
      for (const article of articlesInRuns(texts, [3, 1, 4])) counter.note(article, article.searchText, true);
      const counts = counter.finish();
      expect(counts.encode().toString()).toBe(eachAdded(texts));
      expect(counts.get('pen')).toBe(4);
      expect(counter.runsMerged).toBe(3);
    });

    it('counts a run holding a refused article article by article, without the refused one', () => {
      const counter = new ShopWordCounter();
      const articles = articlesInRuns(texts, [3, 5]);
      articles.forEach((article, i) => counter.note(article, article.searchText, i !== 0 && i !== 6));
      expect(counter.finish().encode().toString()).toBe(eachAdded(texts, new Set([0, 6])));
      expect(counter.runsMerged).toBe(0);
    });

    it('counts articles without a run, a run missing articles and a run the articles end inside on their own', () => {
      const counter = new ShopWordCounter();
      const articles = articlesInRuns(texts.slice(0, 6), [4, 2]);
      // Article 1 never reaches the store; 6 and 7 come without a run; the second run ends early.
      const handed = [0, 2, 3, 6, 4];
      const all = [...articles, ...texts.slice(6).map((searchText, i) => ({ id: `shop:${6 + i}`, searchText }))];
      for (const i of handed) counter.note(all[i]!, all[i]!.searchText, true);
      const expected = new ShopWordCounts();
      for (const i of handed) expected.add(all[i]!.searchText);
      expect(counter.finish().encode().toString()).toBe(expected.encode().toString());
    });
  });
});
