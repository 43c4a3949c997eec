/**
 * Structural equality of two JSON values (objects compared by key set, arrays by order).
 * Gives up and answers false below `maxDepth` levels, so shared or cyclic structures from YAML
 * aliases cannot recurse without end.
 */
export function deepEqual(a: unknown, b: unknown, maxDepth = 64): boolean {
  if (a === b) return true;
  if (maxDepth <= 0 || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i], maxDepth - 1)) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if (!deepEqual(Reflect.get(a, key), Reflect.get(b, key), maxDepth - 1)) return false;
  }
  return true;
}
