import { describe, expect, it } from 'vitest';
import { isOfType, typedValue, type DataType } from './typed-value.js';

const accepted: readonly [DataType, unknown, unknown][] = [
  ['DOUBLE', 24.5, 24.5],
  ['DOUBLE', '24.5', 24.5],
  ['DOUBLE', ' -1e3 ', -1000],
  ['FLOAT', '.5', 0.5],
  ['INTEGER', 42, 42],
  ['INTEGER', '-7', -7],
  ['INTEGER', 4_294_967_295, 4_294_967_295],
  ['BYTE', 255, 255],
  ['BYTE', -128, -128],
  ['LONG', 2 ** 60, 2 ** 60],
  ['BOOLEAN', true, true],
  ['BOOLEAN', 0, false],
  ['BOOLEAN', 'TRUE', true],
  ['STRING', 'up', 'up'],
  ['STRING', 7, '7'],
  ['STRING', false, 'false'],
  ['DATE', '2026-12-03T03:00:00Z', '2026-12-03T03:00:00Z'],
  ['DATE', 1_700_000_000_000, 1_700_000_000_000],
  ['DOUBLE_ARRAY', [1, '2.5'], [1, 2.5]],
  ['OBJECT', { a: 1 }, { a: 1 }],
  ['ARRAY', 'anything', 'anything'],
  ['DOUBLE', null, null],
];

const refused: readonly [DataType, unknown, string][] = [
  ['DOUBLE', 'hello', '"hello" is not a valid DOUBLE'],
  ['DOUBLE', '1,5', '"1,5" is not a valid DOUBLE'],
  ['DOUBLE', '', '"" is not a valid DOUBLE'],
  ['DOUBLE', true, 'true is not a valid DOUBLE'],
  ['DOUBLE', { temp: 1 }, '{"temp":1} is not a valid DOUBLE'],
  ['INTEGER', 1.5, '1.5 is not a valid INTEGER: it has a fraction'],
  ['INTEGER', 2 ** 32, 'out of range (32 bits'],
  ['BYTE', 256, 'out of range (one octet'],
  ['LONG', '12.0', 'an integer is a JSON number or a text of digits'],
  ['BOOLEAN', 'yes please', '"yes please" is not a valid BOOLEAN'],
  ['BOOLEAN', 2, '2 is not a valid BOOLEAN'],
  ['STRING', { a: 1 }, 'only text, numbers and booleans are text'],
  ['DATE', 'soon', '"soon" is not a valid DATE'],
  ['INTEGER_ARRAY', [1, 'x'], 'item 1 of the list: "x" is not a valid INTEGER'],
  ['STRING_ARRAY', 'a', 'it is not a list'],
];

describe('typedValue', () => {
  it.each(accepted)('takes %s %j as %j', (dataType, value, expected) => {
    expect(typedValue(value, dataType)).toEqual({ ok: true, value: expected });
  });

  it.each(refused)('refuses %s %j, naming the value and the type', (dataType, value, reason) => {
    const typed = typedValue(value, dataType);
    expect(typed.ok).toBe(false);
    if (!typed.ok) expect(typed.reason).toContain(reason);
  });

  it('cuts a long value in its reason', () => {
    const typed = typedValue('x'.repeat(500), 'DOUBLE');
    expect(typed.ok ? '' : typed.reason).toMatch(/^"x{56}\.\.\. is not a valid DOUBLE/);
  });
});

const DATA_TYPES: readonly DataType[] = [
  'BYTE',
  'INTEGER',
  'LONG',
  'FLOAT',
  'DOUBLE',
  'BOOLEAN',
  'STRING',
  'DATE',
  'ARRAY',
  'OBJECT',
  'INTEGER_ARRAY',
  'LONG_ARRAY',
  'FLOAT_ARRAY',
  'DOUBLE_ARRAY',
  'STRING_ARRAY',
  'BOOLEAN_ARRAY',
];

const SAMPLES: readonly unknown[] = [
  0,
  1,
  -1,
  24.5,
  -128,
  -129,
  255,
  256,
  2 ** 31,
  2 ** 32,
  -(2 ** 63),
  2 ** 64,
  2 ** 70,
  Number.NaN,
  Infinity,
  -Infinity,
  '',
  '24.5',
  '7',
  'true',
  'hello',
  '2026-12-03T03:00:00Z',
  true,
  false,
  [],
  [1, 2],
  ['a'],
  [true],
  {},
  { a: 1 },
  null,
  undefined,
  10n,
];

describe('isOfType', () => {
  it('is true only where typedValue passes the very value unchanged', () => {
    let fast = 0;
    for (const dataType of DATA_TYPES)
      for (const value of SAMPLES) {
        if (!isOfType(value, dataType)) continue;
        fast++;
        const typed = typedValue(value, dataType);
        expect(typed.ok && Object.is(typed.value, value), `${dataType} ${String(value)}`).toBe(true);
      }
    // The cases the collector meets most: numbers for DOUBLE, text for STRING, integers in range.
    expect(isOfType(24.5, 'DOUBLE')).toBe(true);
    expect(isOfType('up', 'STRING')).toBe(true);
    expect(isOfType(255, 'BYTE')).toBe(true);
    expect(isOfType(256, 'BYTE')).toBe(false);
    expect(isOfType(1.5, 'INTEGER')).toBe(false);
    expect(isOfType(Number.NaN, 'DATE')).toBe(false);
    expect(isOfType([1], 'INTEGER_ARRAY')).toBe(false);
    expect(isOfType('24.5', 'DOUBLE')).toBe(false);
    expect(fast).toBeGreaterThan(60);
  });
});
