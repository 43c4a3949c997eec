/**
 * Compares two strings by Unicode code point, the order of SQLite's BINARY collation (UTF-8
 * bytes) and PostgreSQL's "C" collation. JavaScript's `<` compares UTF-16 code units, which
 * differs when a character above U+FFFF meets one in U+E000..U+FFFF.
 *
 * @returns a negative number, zero or a positive number.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (U+D800..U+DFFF) starts a code point above U+FFFF: greater than any BMP unit.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
