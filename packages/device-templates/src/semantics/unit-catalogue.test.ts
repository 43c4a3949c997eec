import { describe, expect, it } from 'vitest';
import { lookupUnit, toBestCandidates } from './unit-catalogue.js';

describe('lookupUnit', () => {
  it('knows convert-units abbreviations with their measure and system', () => {
    expect(lookupUnit('kW')).toMatchObject({ known: true, unit: { abbr: 'kW', measure: 'power', system: 'metric' } });
    expect(lookupUnit('B')).toMatchObject({ known: true, unit: { measure: 'digital', system: 'bytes' } });
    expect(lookupUnit('b')).toMatchObject({ known: true, unit: { measure: 'digital', system: 'bits' } });
  });

  it.each([
    ['kw', 'kW'],
    ['kilowatts', 'kW'],
    ['°C', 'C'],
    ['degC', 'C'],
    ['hz', 'Hz'],
    ['kwh', 'kWh'],
  ])('suggests %s -> %s', (written, intended) => {
    const lookup = lookupUnit(written);
    expect(lookup.known).toBe(false);
    if (!lookup.known) expect(lookup.closest.map((u) => u.abbr)).toEqual([intended]);
  });

  it('suggests nothing for a word far from every unit', () => {
    const lookup = lookupUnit('bananas');
    expect(lookup).toEqual({ known: false, closest: [] });
  });

  it('answers the same object for a repeated lookup (cached)', () => {
    expect(lookupUnit('kw')).toBe(lookupUnit('kw'));
  });
});

describe('toBestCandidates', () => {
  it('keeps to the measure and system of the unit', () => {
    const lookup = lookupUnit('B');
    if (!lookup.known) throw new Error('B should be known');
    expect(toBestCandidates(lookup.unit).map((u) => u.abbr)).toEqual(['B', 'KB', 'MB', 'GB', 'TB']);
  });
});
