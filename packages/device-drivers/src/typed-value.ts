/**
 * A reading as the datapoint's declared `dataType` says it is (docs/devices.md, "Values are of
 * their declared type"; decision 0045). The collector applies it to every reading of every
 * driver before the value pipeline: a value that is already of the type passes, one that converts
 * without loss is converted (the text `"24.5"` for a DOUBLE, `7` for a STRING), anything else is
 * refused with a reason naming the value and the type, and the reading becomes `null`, quality
 * `bad`.
 */
import type { AddressConfig } from '@triad/device-templates';

export type DataType = AddressConfig['dataType'];

/** The value converted, or why it cannot be. */
export type TypedValue =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

/** A number in the C locale: optional sign, digits with an optional `.` fraction, optional exponent. */
const C_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const INTEGER_TEXT = /^[-+]?\d+$/;

/** Inclusive ranges of the integer types; BYTE takes one octet read signed or unsigned. */
const RANGES: Readonly<Record<'BYTE' | 'INTEGER' | 'LONG', readonly [number, number, string]>> = {
  BYTE: [-128, 255, 'one octet, -128 to 255'],
  INTEGER: [-2_147_483_648, 4_294_967_295, '32 bits, -2147483648 to 4294967295'],
  LONG: [-(2 ** 63), 2 ** 64 - 1, '64 bits'],
};

const ELEMENT: Readonly<Partial<Record<DataType, DataType>>> = {
  INTEGER_ARRAY: 'INTEGER',
  LONG_ARRAY: 'LONG',
  FLOAT_ARRAY: 'FLOAT',
  DOUBLE_ARRAY: 'DOUBLE',
  STRING_ARRAY: 'STRING',
  BOOLEAN_ARRAY: 'BOOLEAN',
};

/**
 * `value` as `dataType`. `null` and `undefined` (no reading) pass as they are. ARRAY and OBJECT
 * take any value (the template says nothing about their content).
 */
export function typedValue(value: unknown, dataType: DataType): TypedValue {
  if (value === null || value === undefined) return { ok: true, value };
  const element = ELEMENT[dataType];
  if (element !== undefined) {
    if (!Array.isArray(value)) return refuse(value, dataType, 'it is not a list');
    const items: unknown[] = [];
    for (const [i, item] of (value as readonly unknown[]).entries()) {
      const typed = typedValue(item, element);
      if (!typed.ok) return { ok: false, reason: `item ${i} of the list: ${typed.reason}` };
      items.push(typed.value);
    }
    return { ok: true, value: items };
  }
  switch (dataType) {
    case 'FLOAT':
    case 'DOUBLE':
      return numberOf(value, dataType);
    case 'BYTE':
    case 'INTEGER':
    case 'LONG':
      return integerOf(value, dataType);
    case 'BOOLEAN':
      return booleanOf(value);
    case 'STRING':
      if (typeof value === 'string') return { ok: true, value };
      if (typeof value === 'number' || typeof value === 'boolean') return { ok: true, value: String(value) };
      return refuse(value, dataType, 'only text, numbers and booleans are text');
    case 'DATE':
      if (typeof value === 'number' && Number.isFinite(value)) return { ok: true, value };
      if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return { ok: true, value };
      return refuse(value, dataType, 'a date is epoch milliseconds or an ISO 8601 text');
    // The typed lists are handled above; ARRAY and OBJECT take any value.
    case 'ARRAY':
    case 'OBJECT':
    case 'INTEGER_ARRAY':
    case 'LONG_ARRAY':
    case 'FLOAT_ARRAY':
    case 'DOUBLE_ARRAY':
    case 'STRING_ARRAY':
    case 'BOOLEAN_ARRAY':
      return { ok: true, value };
  }
}

/**
 * True when `value` is already of `dataType`, so that `typedValue` would return it as it is (the
 * same value, not a copy): a number for FLOAT and DOUBLE, an integer in range for BYTE, INTEGER
 * and LONG, a finite number for DATE, a string for STRING, a boolean for BOOLEAN, anything but
 * `null` and `undefined` for ARRAY and OBJECT. False says nothing (the typed lists, for which
 * `typedValue` builds a new list, and text to convert): call `typedValue`.
 */
export function isOfType(value: unknown, dataType: DataType): boolean {
  if (value === null || value === undefined) return false;
  if (dataType === 'ARRAY' || dataType === 'OBJECT') return true;
  if (typeof value === 'number') {
    if (dataType === 'FLOAT' || dataType === 'DOUBLE') return true;
    if (dataType === 'DATE') return Number.isFinite(value);
    if (dataType !== 'BYTE' && dataType !== 'INTEGER' && dataType !== 'LONG') return false;
    const [min, max] = RANGES[dataType];
    return Number.isInteger(value) && value >= min && value <= max;
  }
  if (typeof value === 'string') return dataType === 'STRING';
  if (typeof value === 'boolean') return dataType === 'BOOLEAN';
  return false;
}

function numberOf(value: unknown, dataType: DataType): TypedValue {
  if (typeof value === 'number') return { ok: true, value };
  if (typeof value === 'string' && C_NUMBER.test(value.trim())) return { ok: true, value: Number(value.trim()) };
  return refuse(value, dataType, 'a number is a JSON number or a text such as 24.5 (a point, no grouping)');
}

function integerOf(value: unknown, dataType: 'BYTE' | 'INTEGER' | 'LONG'): TypedValue {
  const [min, max, range] = RANGES[dataType];
  let number: number;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'string' && INTEGER_TEXT.test(value.trim())) number = Number(value.trim());
  else return refuse(value, dataType, 'an integer is a JSON number or a text of digits');
  if (!Number.isInteger(number)) return refuse(value, dataType, 'it has a fraction');
  if (number < min || number > max) return refuse(value, dataType, `it is out of range (${range})`);
  return { ok: true, value: number };
}

function booleanOf(value: unknown): TypedValue {
  if (typeof value === 'boolean') return { ok: true, value };
  if (value === 0 || value === 1) return { ok: true, value: value === 1 };
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (text === 'true' || text === '1') return { ok: true, value: true };
    if (text === 'false' || text === '0') return { ok: true, value: false };
  }
  return refuse(value, 'BOOLEAN', 'a boolean is true, false, 1 or 0');
}

function refuse(value: unknown, dataType: DataType, why: string): TypedValue {
  return { ok: false, reason: `${shown(value)} is not a valid ${dataType}: ${why}` };
}

/** The value as JSON, cut to 60 characters: a reason names it without flooding a log. */
function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
