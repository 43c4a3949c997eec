import { describe, expect, it } from 'vitest';
import { rawQuery } from './raw-query.js';

describe('rawQuery', () => {
  it('hands on a parsed query string as it is', () => {
    const query = { q: 'drill', businessShopId: ['a', 'b'] };
    expect(rawQuery(query)).toBe(query);
  });

  it('refuses anything but strings and arrays of strings', () => {
    expect(() => rawQuery({ limit: 3 })).toThrow(Error);
    expect(() => rawQuery(['q'])).toThrow(Error);
    expect(() => rawQuery(undefined)).toThrow(Error);
  });
});
