import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expandUnitCodeTable, isUnitCode, normalizeUnitCode, UNIT_CODE_MAPPINGS, UNIT_CODES } from './unit-codes.js';

describe('unit codes', () => {
  it('expands ranges and honours except lists', () => {
    expect([...expandUnitCodeTable('A1-A4 except A3; AA')]).toEqual(['A1', 'A2', 'A4', 'AA']);
    expect(isUnitCode('A45')).toBe(true);
    expect(isUnitCode('A46')).toBe(false);
    expect(isUnitCode('D84')).toBe(false);
    expect(isUnitCode('D83')).toBe(true);
    expect(isUnitCode('H86')).toBe(false);
  });

  it('keeps the leading zero of ranges written with one (F01-F08, H03-H09)', () => {
    expect([...expandUnitCodeTable('F01-F03')]).toEqual(['F01', 'F02', 'F03']);
    for (const code of ['F01', 'F08', 'H03', 'H09']) expect(isUnitCode(code), code).toBe(true);
    for (const code of ['F2', 'H5']) expect(isUnitCode(code), code).toBe(false);
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

  it('keeps every code of the set as it is, legacy ones included', () => {
    for (const code of ['PK', 'BX', 'ST', 'STK', 'PR', 'KG', 'C62', 'H87']) expect(normalizeUnitCode(code)).toBe(code);
    expect([...UNIT_CODES].every((code) => normalizeUnitCode(code) === code)).toBe(true);
  });

  it('maps the codes suppliers write outside the set, in any case and with surrounding space', () => {
    expect(normalizeUnitCode('PCE')).toBe('H87');
    expect(normalizeUnitCode('BOX')).toBe('BX');
    expect(normalizeUnitCode('PAA')).toBe('PR');
    expect(normalizeUnitCode(' pce ')).toBe('H87');
    expect(normalizeUnitCode('c62')).toBe('C62');
    expect(normalizeUnitCode('XBX')).toBe('BX');
    expect(normalizeUnitCode('XPK')).toBe('PK');
  });

  it('maps nothing else', () => {
    for (const code of ['PIECE', 'XYZ', '', 'X4A', 'STUECK']) expect(normalizeUnitCode(code), code).toBeUndefined();
  });

  it('maps only codes outside the set, each to a code of the set, with a source', () => {
    expect(new Set(UNIT_CODE_MAPPINGS.map((m) => m.from)).size).toBe(UNIT_CODE_MAPPINGS.length);
    for (const m of UNIT_CODE_MAPPINGS) {
      expect(UNIT_CODES.has(m.from), m.from).toBe(false);
      expect(UNIT_CODES.has(m.to), `${m.from} -> ${m.to}`).toBe(true);
      expect(m.source.length, m.from).toBeGreaterThan(10);
    }
  });

  it('is the table docs/content-api-units.md shows, row for row', () => {
    const page = readFileSync(new URL('../../../../docs/content-api-units.md', import.meta.url), 'utf8');
    const rows = page.split('\n').filter((line) => /^\| `/.test(line));
    expect(rows).toEqual(UNIT_CODE_MAPPINGS.map((m) => `| \`${m.from}\` | \`${m.to}\` | ${m.source} |`));
  });
});
