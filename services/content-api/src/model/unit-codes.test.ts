import { describe, expect, it } from 'vitest';
import { expandUnitCodeTable, isUnitCode, UNIT_CODES } from './unit-codes.js';

describe('unit codes', () => {
  it('expands ranges and honours except lists', () => {
    expect([...expandUnitCodeTable('A1-A4 except A3; AA')]).toEqual(['A1', 'A2', 'A4', 'AA']);
    expect(isUnitCode('A45')).toBe(true);
    expect(isUnitCode('A46')).toBe(false);
    expect(isUnitCode('D84')).toBe(false);
    expect(isUnitCode('D83')).toBe(true);
    expect(isUnitCode('H86')).toBe(false);
  });

  it('accepts the common order units and refuses lower case and unknown codes', () => {
    for (const code of ['C62', 'PCE', 'PK', 'BX', 'KGM', 'LTR', 'MTR', 'SET', 'PR', 'RO', 'H87', 'ZZ']) {
      expect(isUnitCode(code), code).toBe(code !== 'PCE');
    }
    expect(isUnitCode('c62')).toBe(false);
    expect(isUnitCode('XYZ')).toBe(false);
  });

  it('holds over a thousand codes, all upper-case letters and digits', () => {
    expect(UNIT_CODES.size).toBeGreaterThan(1000);
    expect([...UNIT_CODES].every((c) => /^[0-9A-Z]{2,3}$/.test(c))).toBe(true);
  });
});
