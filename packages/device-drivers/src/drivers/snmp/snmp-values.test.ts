import snmp from 'net-snmp';
import { describe, expect, it } from 'vitest';
import type { PointRequest } from '../../driver.js';
import { readingOf } from './snmp-values.js';

const T = snmp.ObjectType;
const read = (type: snmp.ObjectType, value: snmp.VarbindValue, dataType: PointRequest['dataType'], origin = '') =>
  readingOf({ oid: '1.3.6.1.4.1.1.0', type, value }, { dataType, originDataType: origin });
const value = (...args: Parameters<typeof read>) => read(...args).rawValue;

describe('SNMP values', () => {
  it('reads the integer types as numbers', () => {
    for (const type of [T.Integer, T.Counter32, T.Gauge32, T.TimeTicks])
      expect(read(type, 4_000_000_000, 'LONG')).toEqual({ rawValue: 4_000_000_000, quality: 'good' });
    expect(value(T.Integer, -5, 'DOUBLE')).toBe(-5);
    expect(value(T.TimeTicks, 12345, 'STRING')).toBe('12345');
  });

  it('reads a Counter64 as a number while it is safe, else as its exact decimal text', () => {
    const small = Buffer.from([0x01, 0x99, 0x83, 0x27, 0x14]);
    const huge = Buffer.from([0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    expect(value(T.Counter64, small, 'LONG')).toBe(6_870_476_564);
    expect(value(T.Counter64, huge, 'OBJECT')).toBe('18446744073709551615');
    expect(value(T.Counter64, huge, 'STRING')).toBe('18446744073709551615');
    expect(value(T.Counter64, huge, 'DOUBLE')).toBe(2 ** 64);
  });

  it('reads an octet string as text when it is printable UTF-8, else as colon-separated hex', () => {
    expect(value(T.OctetString, Buffer.from('eth0'), 'STRING')).toBe('eth0');
    expect(value(T.OctetString, Buffer.from('Grüße\n'), 'STRING')).toBe('Grüße\n');
    expect(value(T.OctetString, Buffer.from('name\0'), 'STRING')).toBe('name');
    expect(value(T.OctetString, Buffer.from([0x00, 0x1a, 0x2b, 0xff]), 'STRING')).toBe('00:1a:2b:ff');
    expect(value(T.OctetString, Buffer.from('AB'), 'STRING', 'PhysAddress')).toBe('41:42');
    expect(value(T.OctetString, Buffer.alloc(0), 'STRING')).toBe('');
    expect(value(T.Opaque, Buffer.from([1, 2]), 'OBJECT')).toBe('01:02');
  });

  it('reads numeric text as a number for the number types, and other text as bad', () => {
    expect(value(T.OctetString, Buffer.from(' 42.5 '), 'DOUBLE')).toBe(42.5);
    expect(value(T.OctetString, Buffer.from('-7'), 'LONG')).toBe(-7);
    expect(read(T.OctetString, Buffer.from('up'), 'DOUBLE')).toEqual({ rawValue: null, quality: 'bad' });
    expect(read(T.IpAddress, '10.0.0.1', 'LONG')).toEqual({ rawValue: null, quality: 'bad' });
  });

  it('reads OIDs and IP addresses as dotted text, Boolean as a boolean, Null as null', () => {
    expect(value(T.OID, '1.3.6.1.4.1.8072.3.2.10', 'STRING')).toBe('1.3.6.1.4.1.8072.3.2.10');
    expect(value(T.OID, '1.3.6', 'INTEGER_ARRAY')).toEqual([1, 3, 6]);
    expect(value(T.IpAddress, '192.0.2.7', 'STRING')).toBe('192.0.2.7');
    expect(value(T.Boolean, true, 'BOOLEAN')).toBe(true);
    expect(read(T.Null, null, 'STRING')).toEqual({ rawValue: null, quality: 'good' });
  });

  it('reads TruthValue 1/2 and other integers as booleans', () => {
    expect(value(T.Integer, 1, 'BOOLEAN', 'TruthValue')).toBe(true);
    expect(value(T.Integer, 2, 'BOOLEAN', 'TruthValue')).toBe(false);
    expect(value(T.Integer, 2, 'BOOLEAN')).toBe(true);
    expect(value(T.Integer, 0, 'BOOLEAN')).toBe(false);
    expect(value(T.OctetString, Buffer.from('off'), 'BOOLEAN')).toBe(false);
  });

  it('reads DateAndTime as ISO 8601 text', () => {
    const local = Buffer.from([0x07, 0xea, 11, 26, 8, 5, 9, 3, 0x2b, 1, 0]);
    expect(value(T.OctetString, local, 'DATE')).toBe('2026-11-26T08:05:09.3+01:00');
    expect(value(T.OctetString, local.subarray(0, 8), 'DATE')).toBe('2026-11-26T08:05:09.3');
  });

  it('reads noSuchObject, noSuchInstance and endOfMibView as bad', () => {
    for (const type of [T.NoSuchObject, T.NoSuchInstance, T.EndOfMibView])
      expect(read(type, null, 'STRING')).toEqual({ rawValue: null, quality: 'bad' });
  });
});
