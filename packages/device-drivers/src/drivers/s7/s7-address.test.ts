import { describe, expect, it } from 'vitest';
import { parseS7Address } from './s7-address.js';
import { planRanges, planRequests, type S7Span } from './s7-batches.js';
import { decodeS7, parseS7DataType, sizeOf } from './s7-data-type.js';

describe('S7 address grammar', () => {
  it.each([
    ['DB1.DBX0.0', { area: 'DB', db: 1, byte: 0, width: 'X', bit: 0 }],
    ['db12.dbx3.7', { area: 'DB', db: 12, byte: 3, width: 'X', bit: 7 }],
    ['DB1.DBB2', { area: 'DB', db: 1, byte: 2, width: 'B' }],
    ['DB1.DBW10', { area: 'DB', db: 1, byte: 10, width: 'W' }],
    ['DB1.DBD4', { area: 'DB', db: 1, byte: 4, width: 'D' }],
    ['DB65535.DBD65535', { area: 'DB', db: 65535, byte: 65535, width: 'D' }],
    ['DB1.DBS36.10', { area: 'DB', db: 1, byte: 36, width: 'S', length: 10 }],
    ['M0.1', { area: 'M', db: 0, byte: 0, width: 'X', bit: 1 }],
    ['MB1', { area: 'M', db: 0, byte: 1, width: 'B' }],
    ['MW2', { area: 'M', db: 0, byte: 2, width: 'W' }],
    ['MD4', { area: 'M', db: 0, byte: 4, width: 'D' }],
    ['I0.1', { area: 'I', db: 0, byte: 0, width: 'X', bit: 1 }],
    ['E0.1', { area: 'I', db: 0, byte: 0, width: 'X', bit: 1 }],
    ['IW2', { area: 'I', db: 0, byte: 2, width: 'W' }],
    ['EB7', { area: 'I', db: 0, byte: 7, width: 'B' }],
    ['Q0.7', { area: 'Q', db: 0, byte: 0, width: 'X', bit: 7 }],
    ['A0.7', { area: 'Q', db: 0, byte: 0, width: 'X', bit: 7 }],
    ['QD4', { area: 'Q', db: 0, byte: 4, width: 'D' }],
    ['AW8', { area: 'Q', db: 0, byte: 8, width: 'W' }],
  ])('reads %s', (text, expected) => {
    expect(parseS7Address(text)).toEqual(expected);
  });

  it.each([
    ['DB1.DBX0', 'names a bit: add .0 to .7'],
    ['DB1.DBX0.8', 'the bit must be 0 to 7'],
    ['DB0.DBW0', 'the DB number must be 1 to 65535'],
    ['DB1.DBW70000', 'the byte must be 0 to 65535'],
    ['DB1.DBW2.1', 'only bits (X) and strings (S) take a suffix'],
    ['DB1.DBS2', 'add its declared length'],
    ['DB1.DBS2.255', 'the string length must be 1 to 254'],
    ['M0', 'names a bit'],
    ['MW2.1', 'only bits (X) and strings (S) take a suffix'],
    ['DB1,REAL4', 'is not an S7 address'],
    ['T1', 'is not an S7 address'],
  ])('refuses %s', (text, message) => {
    expect(() => parseS7Address(text)).toThrow(message);
  });
});

describe('S7 data types', () => {
  it('fits each type to its address width', () => {
    expect(parseS7DataType('real', parseS7Address('DB1.DBD4'))).toBe('REAL');
    expect(parseS7DataType('LREAL', parseS7Address('DB1.DBD4'))).toBe('LREAL');
    expect(sizeOf(parseS7Address('DB1.DBD4'), 'LREAL')).toBe(8);
    expect(sizeOf(parseS7Address('DB1.DBS0.20'), 'STRING')).toBe(22);
    expect(() => parseS7DataType('INT', parseS7Address('DB1.DBD4'))).toThrow(
      'INT is read from an address like DB1.DBW0 or MW0, not a D address',
    );
    expect(() => parseS7DataType('BOOL', parseS7Address('MB0'))).toThrow('BOOL is read from an address like');
    expect(() => parseS7DataType('FLOAT', parseS7Address('MD0'))).toThrow('"FLOAT" is not an S7 data type');
  });

  it('decodes big-endian values and S7 strings', () => {
    const where = (text: string) => parseS7Address(text);
    expect(decodeS7(Buffer.from([0b100]), where('M0.2'), 'BOOL')).toBe(true);
    expect(decodeS7(Buffer.from([0xff, 0x38]), where('MW0'), 'INT')).toBe(-200);
    expect(decodeS7(Buffer.from([0x42, 0x2a, 0, 0]), where('MD0'), 'REAL')).toBe(42.5);
    // Declared 4, current 9 (corrupt): no more than the declared length.
    expect(decodeS7(Buffer.from([4, 9, 0x41, 0x42, 0x43, 0x44, 0x45]), where('DB1.DBS0.4'), 'STRING')).toBe('ABCD');
  });
});

describe('S7 request planning', () => {
  const span = (area: S7Span['area'], db: number, start: number, size: number): S7Span => ({ area, db, start, size });

  it('joins neighbours of one area within the gap, never across areas or DBs', () => {
    const ranges = planRanges(
      [span('DB', 1, 0, 1), span('DB', 1, 4, 4), span('DB', 1, 100, 2), span('DB', 2, 0, 2), span('M', 0, 0, 1)],
      32,
    );
    expect(ranges.map((r) => `${r.area}${r.db}:${r.start}+${r.size}/${r.items.length}`)).toEqual([
      'DB1:0+8/2',
      'DB1:100+2/1',
      'DB2:0+2/1',
      'M0:0+1/1',
    ]);
  });

  it('cuts long ranges to fit the PDU and packs at most 20 items per request', () => {
    const long = planRanges([span('DB', 3, 0, 2), span('DB', 3, 590, 2)], 1000);
    // PDU 240: 222 data bytes per answer item.
    const requests = planRequests(long, { pduSize: 240, maxGap: 0 });
    expect(requests.flatMap((r) => r.pieces.map((p) => `${p.start}+${p.size}`)).sort()).toEqual(
      ['0+222', '222+222', '444+148'].sort(),
    );
    expect(requests).toHaveLength(3);
    const many = planRanges(
      Array.from({ length: 45 }, (_, i) => span('DB', 1, i * 10, 2)),
      0,
    );
    const packed = planRequests(many, { pduSize: 480, maxGap: 0 });
    expect(packed.map((r) => r.pieces.length)).toEqual([20, 20, 5]);
    // PDU 240: a request holds at most 19 item specifications (12 + 12 × 19 = 240 bytes).
    expect(planRequests(many, { pduSize: 240, maxGap: 0 }).map((r) => r.pieces.length)).toEqual([19, 19, 7]);
  });
});
