/** Which way a sorted column runs (the values `aria-sort` takes). */
export type SortDirection = 'ascending' | 'descending';

/** The column a table is sorted by, and which way. */
export interface SortState {
  readonly column: string;
  readonly direction: SortDirection;
}

/** What a sortable column sorts by: text (compared as people read it, `node2` before `node10`) or a number. */
export type SortValue = string | number | null | undefined;

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function isMissing(value: SortValue): value is null | undefined {
  return value === null || value === undefined || Number.isNaN(value);
}

/**
 * Compares two sort values ascending: numbers by size, text by the reader's collation with
 * digits as numbers; a missing value (null, undefined, NaN) after every present one.
 */
export function compareSortValues(a: SortValue, b: SortValue): number {
  const aMissing = isMissing(a);
  const bMissing = isMissing(b);
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/**
 * The rows sorted by `value` in `direction`: a new array, stable (equal rows keep their order);
 * rows without a value stay last whichever the direction.
 */
export function sortRows<Row>(rows: readonly Row[], value: (row: Row) => SortValue, direction: SortDirection): Row[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return rows
    .map((row) => ({ row, key: value(row) }))
    .sort((a, b) => {
      const order = compareSortValues(a.key, b.key);
      return isMissing(a.key) || isMissing(b.key) ? order : sign * order;
    })
    .map(({ row }) => row);
}

/**
 * The sort after a person picks `column`: the other way round when it is the sorted column
 * already, else `first` (ascending unless the column reads best newest or largest first).
 */
export function nextSort(
  current: SortState | undefined,
  column: string,
  first: SortDirection = 'ascending',
): SortState {
  if (current?.column !== column) return { column, direction: first };
  return { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
}
