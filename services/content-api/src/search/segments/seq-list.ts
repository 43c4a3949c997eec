/**
 * Parses a comma-separated list of non-negative integers (SQLite's `group_concat` of rowids, PostgreSQL's
 * `string_agg`) (`"12,4294967297,..."`) into numbers.
 * One string crosses from the database instead of a row per match, which halves the cost for large
 * result sets.
 */
export function parseSeqList(list: string): Float64Array {
  if (list === '') return new Float64Array(0);
  let n = 1;
  for (let i = list.indexOf(','); i !== -1; i = list.indexOf(',', i + 1)) n += 1;
  const out = new Float64Array(n);
  let at = 0;
  let value = 0;
  for (let i = 0; i < list.length; i += 1) {
    const c = list.charCodeAt(i);
    if (c === 44) {
      out[at++] = value;
      value = 0;
    } else value = value * 10 + (c - 48);
  }
  out[at] = value;
  return out;
}
