import { describe, expect, it } from 'vitest';
import { typedValue, type DataType } from './typed-value.js';

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
