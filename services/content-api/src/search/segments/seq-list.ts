/**
 * Parses a comma-separated list of non-negative integers (SQLite's `group_concat` of rowids, PostgreSQL's
 * `string_agg`) (`"12,4294967297,..."`) into numbers.
 * One string crosses from the database instead of a row per match, which halves the cost for large
 * result sets. With `memory` `'shared'` the numbers are written over a `SharedArrayBuffer`
 * (`shared` then keeps the array as it is): a list to be kept and posted to search workers.
 */
export function parseSeqList(list: string, memory: 'own' | 'shared' = 'own'): Float64Array {
  const sized = (n: number) =>
    memory === 'shared'
      ? new Float64Array(new SharedArrayBuffer(n * Float64Array.BYTES_PER_ELEMENT))
      : new Float64Array(n);
  if (list === '') return sized(0);
  let n = 1;
  for (let i = list.indexOf(','); i !== -1; i = list.indexOf(',', i + 1)) n += 1;
  const out = sized(n);
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

/**
 * `array`'s elements over a `SharedArrayBuffer` (`array` itself when it is over one already). A
 * kept match list made so is shared with a search worker it is posted to, not copied per search
 * (decision 0051); lists are never changed once made, by either thread.
 */
export function shared<A extends Float64Array | Uint8Array>(array: A): A {
  if (array.buffer instanceof SharedArrayBuffer) return array;
  const type = array.constructor as new (buffer: SharedArrayBuffer) => A;
  const copy = new type(new SharedArrayBuffer(array.byteLength));
  copy.set(array);
  return copy;
}

/** The first index of ascending `values` whose value is at least `value` (`values.length` if none). */
export function lowerBound(values: Float64Array, value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
