import { describe, expect, it } from 'vitest';
import { parseRejectLimit, rejectRefusal } from './reject-limit.js';

describe('parseRejectLimit', () => {
  it('reads a count and a percentage', () => {
    expect(parseRejectLimit('25')).toEqual({ count: 25 });
    expect(parseRejectLimit('2.5%')).toEqual({ percent: 2.5 });
    expect(parseRejectLimit('100%')).toEqual({ percent: 100 });
  });

  it.each(['-1', '101%', 'ten', '5 %', ''])('refuses %j naming what is accepted', (text) => {
    expect(() => parseRejectLimit(text)).toThrow(/whole number \(25\) or a percentage/);
  });
});

describe('rejectRefusal', () => {
  it('lets an import without refusals commit, even one that empties the shop', () => {
    expect(rejectRefusal({ records: 0, refused: 0, shopArticlesAfter: 0 }, undefined)).toBeUndefined();
  });

  it('by default refuses a replacement left empty, and more than 5 % otherwise', () => {
    expect(rejectRefusal({ records: 1, refused: 1, shopArticlesAfter: 0 }, undefined)).toMatch(/leave the shop empty/);
    expect(rejectRefusal({ records: 100, refused: 5, shopArticlesAfter: 95 }, undefined)).toBeUndefined();
    expect(rejectRefusal({ records: 100, refused: 6, shopArticlesAfter: undefined }, undefined)).toMatch(
      /6 of 100 records refused \(6\.0 %\), more than the default 5 %/,
    );
  });

  it('lets an explicit limit decide alone', () => {
    expect(rejectRefusal({ records: 2, refused: 2, shopArticlesAfter: 0 }, { percent: 100 })).toBeUndefined();
    expect(rejectRefusal({ records: 10, refused: 3, shopArticlesAfter: 7 }, { count: 2 })).toMatch(/--max-rejects 2$/);
    expect(rejectRefusal({ records: 10, refused: 3, shopArticlesAfter: 7 }, { percent: 30 })).toBeUndefined();
  });
});
