/**
 * True for a JSON object as `JSON.parse` or a YAML loader produces it: any non-null object that is
 * not an array. The guard narrows to a record of unknown values, so every property read is checked.
 * Class instances (Date, Map) also pass; parsed documents never contain them.
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
