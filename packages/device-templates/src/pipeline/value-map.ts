import type { ValueMapEntry } from '../generated/device-template.generated.js';

/** Marks a lookup that found no key (a value map never maps to `undefined`). */
export const NO_MATCH: unique symbol = Symbol('no match');

/** A compiled `valueMapConfig`: the mapped value of a raw value, or `NO_MATCH`. */
export type ValueMapLookup = (rawValue: unknown) => unknown;

/**
 * Compiles `valueMapConfig.map` into a lookup. Matching rules (docs/decisions/0006):
 * - a key of the same type and value matches first (`1` matches `1`, `'up'` matches `'up'`);
 * - otherwise a number and a string match when the string is the number's canonical text
 *   (`1` and `'1'`, `2.5` and `'2.5'`; not `'01'`, `'1.0'` or `' 1'`): drivers send numbers
 *   as text (MQTT) or as numbers (SNMP) and templates write keys either way;
 * - booleans match booleans only (`true` is not `'true'` or `1`);
 * - entries without a key or without a value are skipped; when two entries share a key the
 *   first wins.
 * Mapped values are used as written (a string `'2'` stays a string).
 */
export function compileValueMap(entries: readonly ValueMapEntry[]): ValueMapLookup {
  const exact = new Map<unknown, unknown>();
  // Canonical text of number keys, and string keys, for the cross-type match.
  const numberKeysByText = new Map<string, unknown>();
  const stringKeys = new Map<string, unknown>();
  for (const entry of entries) {
    const { key, value } = entry;
    if (key === undefined || value === undefined || key === null || value === null) continue;
    if (exact.has(key)) continue;
    exact.set(key, value);
    if (typeof key === 'number' && !numberKeysByText.has(String(key))) numberKeysByText.set(String(key), value);
    else if (typeof key === 'string' && !stringKeys.has(key)) stringKeys.set(key, value);
  }
  // The cross-type lookups only when the map has keys of the other type (String(n) costs on every miss).
  const hasStringKeys = stringKeys.size > 0;
  const hasNumberKeys = numberKeysByText.size > 0;
  return (rawValue) => {
    const hit = exact.get(rawValue);
    if (hit !== undefined) return hit;
    if (hasStringKeys && typeof rawValue === 'number') {
      const loose = stringKeys.get(String(rawValue));
      return loose === undefined ? NO_MATCH : loose;
    }
    if (hasNumberKeys && typeof rawValue === 'string') {
      const loose = numberKeysByText.get(rawValue);
      return loose === undefined ? NO_MATCH : loose;
    }
    return NO_MATCH;
  };
}
