import { describe, expect, it } from 'vitest';
import { parseModbusAddress } from './modbus-address.js';
import { planBatches, type Span } from './modbus-batches.js';
import { decodeRegisters, parseModbusDataType, spanOf } from './modbus-data-type.js';

describe('Modbus address grammar', () => {
  it.each([
    ['holding:30013', { area: 'holding', address: 30013 }],
    ['holding:0', { area: 'holding', address: 0 }],
    ['Input:7', { area: 'input', address: 7 }],
    ['coil:65535', { area: 'coil', address: 65535 }],
    ['discrete:12', { area: 'discrete', address: 12 }],
    ['40001', { area: 'holding', address: 0 }],
    ['30001', { area: 'input', address: 0 }],
    ['10001', { area: 'discrete', address: 0 }],
    ['00001', { area: 'coil', address: 0 }],
    ['49999', { area: 'holding', address: 9998 }],
    ['400001', { area: 'holding', address: 0 }],
    ['465536', { area: 'holding', address: 65535 }],
    ['HR:40013', { area: 'holding', address: 12 }],
    ['ir:30002', { area: 'input', address: 1 }],
    ['holding:60.3', { area: 'holding', address: 60, bit: 3 }],
    ['40061.15', { area: 'holding', address: 60, bit: 15 }],
    ['holding:100:10', { area: 'holding', address: 100, length: 10 }],
    ['HR:40101:4', { area: 'holding', address: 100, length: 4 }],
  ])('reads %s', (text, expected) => {
    expect(parseModbusAddress(text)).toEqual(expected);
  });

  it.each([
    ['holding:65536', 'from 0 to 65535'],
    ['40000', 'counts from 40001'],
    ['HR:30001', 'HR: takes a Modicon reference starting with 4'],
    ['HR:5', 'for the 0-based protocol address write holding:5'],
    ['coil:3.1', 'one bit already'],
    ['holding:3.16', 'bits 0 to 15'],
    ['holding:3:126', '1 to 125 registers'],
    ['1234', 'is not a Modbus address'],
    ['register:5', 'is not a Modbus address'],
  ])('refuses %s', (text, message) => {
    expect(() => parseModbusAddress(text)).toThrow(message);
  });
});

describe('Modbus data types', () => {
  const words = (fill: (b: Buffer) => void, size: number) => {
    const buffer = Buffer.alloc(size);
    fill(buffer);
    return Array.from({ length: size / 2 }, (_, i) => buffer.readUInt16BE(i * 2));
  };
  const holding = parseModbusAddress('holding:0');

  it('decodes big-endian words and the swapped word order', () => {
    const float = words((b) => b.writeFloatBE(230.5), 4);
    expect(decodeRegisters(float, holding, parseModbusDataType('float32'))).toBe(230.5);
    expect(decodeRegisters([...float].reverse(), holding, parseModbusDataType('FLOAT32-swapped'))).toBe(230.5);
    const long = words((b) => b.writeBigInt64BE(-1234567890123n), 8);
    expect(decodeRegisters(long, holding, parseModbusDataType('int64'))).toBe(-1234567890123);
    expect(decodeRegisters([...long].reverse(), holding, parseModbusDataType('int64-swapped'))).toBe(-1234567890123);
    expect(decodeRegisters([0xfb2e], holding, parseModbusDataType('int16'))).toBe(-1234);
  });

  it('reads strings up to the first NUL, bytes swapped with -swapped', () => {
    const type = parseModbusDataType('string');
    expect(decodeRegisters([0x5472, 0x6961, 0x6400], holding, type)).toBe('Triad');
    expect(decodeRegisters([0x7254, 0x6169, 0x0064], holding, parseModbusDataType('string-swapped'))).toBe('Triad');
  });

  it('says which type and size fit an address', () => {
    expect(spanOf(parseModbusAddress('holding:0'), parseModbusDataType('float64'))).toBe(4);
    expect(spanOf(parseModbusAddress('holding:0:6'), parseModbusDataType('string'))).toBe(6);
    expect(() => spanOf(parseModbusAddress('holding:0'), parseModbusDataType('string'))).toThrow('needs its length');
    expect(() => spanOf(parseModbusAddress('coil:0'), parseModbusDataType('int16'))).toThrow('read as bool');
    expect(() => parseModbusDataType('int16-swapped')).toThrow('no word order');
    expect(() => parseModbusDataType('real')).toThrow('not a Modbus data type');
    expect(parseModbusAddress('unit3:40001')).toEqual({ unit: 3, area: 'holding', address: 0 });
    expect(parseModbusAddress('Unit0:coil:5')).toEqual({ unit: 0, area: 'coil', address: 5 });
    expect(() => parseModbusAddress('unit256:holding:0')).toThrow('a unit id goes from 0 to 255');
    expect(() => parseModbusDataType('float32-acbd')).toThrow('one of -abcd, -cdab, -dcba, -badc');
    expect(() => parseModbusDataType('string-cdab')).toThrow('a string takes only -swapped');
    expect(parseModbusDataType('UINT32-DCBA')).toEqual({ kind: 'uint32', lowWordFirst: true, swapBytes: true });
  });
});

describe('Modbus request batching', () => {
  it('merges neighbours per table within the gap and the 125-register limit', () => {
    const addresses = [...Array.from({ length: 14 }, (_, i) => i * 10), 200];
    const items: Span[] = addresses.map((address) => ({ area: 'holding', address, span: 2 }));
    items.push({ area: 'holding', address: 1, span: 1 }, { area: 'input', address: 0, span: 1 });
    const batches = planBatches(items).map((b) => [b.area, b.address, b.count, b.items.length]);
    expect(batches).toEqual([
      ['input', 0, 1, 1],
      ['holding', 0, 122, 14],
      ['holding', 130, 2, 1],
      ['holding', 200, 2, 1],
    ]);
  });

  it('merges coils across larger gaps, up to 2000 per request', () => {
    const items = [0, 200, 1999, 2500].map((address) => ({ area: 'coil' as const, address, span: 1 }));
    expect(planBatches(items).map((b) => [b.address, b.count])).toEqual([
      [0, 201],
      [1999, 1],
      [2500, 1],
    ]);
    const near = [0, 100, 250, 1990].map((address) => ({ area: 'coil' as const, address, span: 1 }));
    expect(planBatches(near, { maxRegisters: 125, maxBits: 2000, maxGap: 124 }).map((b) => b.count)).toEqual([1991]);
  });
});
