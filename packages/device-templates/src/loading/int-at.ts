/**
 * Entry `i` of an index table (node offsets, subtree ends, parents...) that the caller only reads
 * at indexes it wrote. Past the end it reads 0, as a freshly allocated table does.
 *
 * One function for every table of the loaders: the tables are all `Int32Array`s, so the read
 * stays monomorphic, and the checked index types the result as a `number` without a cast.
 */
export function intAt(table: Int32Array, i: number): number {
  return table[i] ?? 0;
}
