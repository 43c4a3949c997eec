/**
 * Reads a path segment as an array index: a non-negative integer, or the canonical decimal
 * string of one (`'3'`, not `'03'` or `'3.0'`). Returns -1 for anything else.
 */
export function arrayIndexOf(segment: string | number): number {
  if (typeof segment === 'number') return Number.isSafeInteger(segment) && segment >= 0 ? segment : -1;
  if (!/^(?:0|[1-9][0-9]{0,15})$/.test(segment)) return -1;
  const index = Number(segment);
  return Number.isSafeInteger(index) ? index : -1;
}
