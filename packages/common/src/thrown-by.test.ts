import { describe, expect, it } from 'vitest';
import { thrownBy } from './thrown-by.js';

describe('thrownBy', () => {
  it('returns the thrown error with its fields', () => {
    const error = Object.assign(new RangeError('too big'), { code: 'X_ERR_BIG', offset: 4 });
    const caught = thrownBy(() => {
      throw error;
    });
    expect(caught).toBe(error);
    expect(caught).toMatchObject({ code: 'X_ERR_BIG', offset: 4 });
  });

  it('fails when the action returns normally', () => {
    expect(() => thrownBy(() => 42)).toThrow('expected the action to throw, but it returned');
  });
});
