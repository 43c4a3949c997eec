import type { ComponentChildren } from 'preact';
import type { SortDirection, SortState } from './table-sort.js';

/** A column as its header cell needs it. */
export interface ColumnHeader {
  /** Names the column in the sort state; unique within a table. */
  readonly id: string;
  /** The header text, also the name of its sort button. */
  readonly header: string;
  /** Whether a person may sort by this column (a button in its header cell). */
  readonly sortable?: boolean;
  /** The direction the first pick of the column sorts in: ascending unless newest or largest first reads best. */
  readonly firstDirection?: SortDirection;
}

const MARKS: Readonly<Record<SortDirection, string>> = { ascending: '▲', descending: '▼' };

/**
 * A table's header row: one `<th scope="col" data-column>` per column. The sorted column says so with
 * `aria-sort`; a sortable one holds a button (Enter or Space sorts) whose arrow shows the order.
 */
export function ColumnHeaders(props: {
  readonly columns: readonly ColumnHeader[];
  readonly sort: SortState | undefined;
  readonly onSort?: (column: ColumnHeader) => void;
  /** The row's `aria-rowindex` in a table that draws only some of its rows. */
  readonly rowIndex?: number;
  /** A cell before the column headers (the box that selects every row). */
  readonly leading?: ComponentChildren;
}) {
  const { sort, onSort } = props;
  return (
    <thead>
      <tr aria-rowindex={props.rowIndex}>
        {props.leading}
        {props.columns.map((column) => {
          const direction = sort?.column === column.id ? sort.direction : undefined;
          return (
            <th key={column.id} scope="col" aria-sort={direction} data-column={column.id}>
              {column.sortable && onSort ? (
                <button type="button" class="sort-button" onClick={() => onSort(column)}>
                  {column.header}
                  <span class={direction ? 'sort-mark sorted' : 'sort-mark'} aria-hidden="true">
                    {direction ? MARKS[direction] : '↕'}
                  </span>
                </button>
              ) : direction ? (
                <>
                  {column.header}
                  <span class="sort-mark sorted" aria-hidden="true">
                    {' '}
                    {MARKS[direction]}
                  </span>
                </>
              ) : (
                column.header
              )}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
