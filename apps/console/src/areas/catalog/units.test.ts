import { describe, expect, it } from 'vitest';
import { formatCount, formatQuantity, unitName } from './units.js';

describe('unit names', () => {
  it('names common UN/ECE Rec 20 codes, singular and plural', () => {
    expect(unitName('C62')).toBe('piece');
    expect(formatQuantity(1, 'C62', 'en')).toBe('1 piece');
    expect(formatQuantity(1000, 'PCE', 'en')).toBe('1,000 pieces');
    expect(formatQuantity(2, 'KGM', 'de')).toBe('2 kilograms');
  });

  it('shows an unknown code as it is', () => {
    expect(formatQuantity(3, 'XYZ', 'en')).toBe('3 XYZ');
  });

  it('groups digits as the locale does', () => {
    expect(formatCount(24998, 'en')).toBe('24,998');
    expect(formatCount(24998, 'de')).toBe('24.998');
  });
});
