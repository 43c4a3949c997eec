import { describe, expect, it } from 'vitest';
import { ShopWordCounts } from './shop-word-counts.js';

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
});
