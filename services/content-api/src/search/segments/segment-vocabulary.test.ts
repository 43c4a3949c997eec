import { describe, expect, it } from 'vitest';
import { ShopWordCounts } from './shop-word-counts.js';
import { summedWordCounts } from './segment-vocabulary.js';

describe('summedWordCounts', () => {
  it('adds up the articles of each word over the shops and keeps words from a on', () => {
    const one = new ShopWordCounts();
    one.add('blue pen grün');
    one.add('red pen _x');
    const two = new ShopWordCounts();
    two.add('pen grün weiß');
    expect(Object.fromEntries(summedWordCounts([one, two, new ShopWordCounts()]))).toEqual({
      blue: 1,
      pen: 3,
      red: 1,
      grün: 2,
      weiß: 1,
    });
    expect(summedWordCounts([]).size).toBe(0);
  });
});
