import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { ColumnHeaders, type ColumnHeader } from './column-headers.js';
import { TableScroll } from './table-scroll.js';
import { nextSort, sortRows, type SortState, type SortValue } from './table-sort.js';

/** One column of a `DataTable`: its header, what each row shows in it, and how it sorts. */
export interface Column<Row> extends Omit<ColumnHeader, 'sortable'> {
  /** The cell's content for one row. */
  readonly cell: (row: Row) => ComponentChildren;
  /** The cell that names its row (`<th scope="row">`): the node, the user, the file. */
  readonly rowHeader?: boolean;
  /** A class for the cell of one row (a state colour). */
  readonly cellClass?: (row: Row) => string | undefined;
  /** What the column sorts by; without it the column does not sort. */
  readonly sortValue?: (row: Row) => SortValue;
}

export interface DataTableProps<Row> {
  readonly columns: readonly Column<Row>[];
  readonly rows: readonly Row[];
  /** The key of a row among its siblings (its id). */
  readonly rowKey: (row: Row, index: number) => string | number;
  /**
   * The table's caption, which names it (and its scroll region), or a function of the current
   * sort when the caption tells the order. Without a caption, `labelledBy` names the table.
   */
  readonly caption?: ComponentChildren | ((sort: SortState | undefined) => ComponentChildren);
  /** Keeps the caption for assistive technology only (a heading on the page says the same). */
  readonly captionHidden?: boolean;
  /** Id of a heading that names the table, for a table without caption. */
  readonly labelledBy?: string;
  /** Shown instead of the table when there are no rows; without it an empty table shows. */
  readonly empty?: ComponentChildren;
  readonly class?: string;
  /** The order the rows come in, when they come sorted by one of the columns (newest first). */
  readonly initialSort?: SortState;
  /** The language of a row's text, when it is not the page's. */
  readonly rowLang?: (row: Row) => string | undefined;
}

/**
 * The console's table: a caption or heading names it, one column header per column, the cell
 * that names each row is a row header, sortable columns sort on the client (`aria-sort` says how),
 * an empty list is a sentence instead, and on a narrow screen the table scrolls sideways inside
 * its own box (`TableScroll`) instead of the page.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const { columns, rows, rowKey, caption, initialSort } = props;
  const [sort, setSort] = useState<SortState | undefined>(initialSort);
  const captionId = useId();
  if (rows.length === 0 && props.empty !== undefined) return <p class="table-empty">{props.empty}</p>;
  const sorted = columns.find((column) => column.id === sort?.column);
  const shown =
    sort === undefined ||
    sorted?.sortValue === undefined ||
    (initialSort?.column === sort.column && initialSort.direction === sort.direction)
      ? rows
      : sortRows(rows, sorted.sortValue, sort.direction);
  const labelledBy = caption === undefined ? props.labelledBy : captionId;
  return (
    <TableScroll labelledBy={labelledBy}>
      <table class={props.class} aria-labelledby={caption === undefined ? props.labelledBy : undefined}>
        {caption === undefined ? null : (
          <caption id={captionId} class={props.captionHidden ? 'visually-hidden' : undefined}>
            {typeof caption === 'function' ? caption(sort) : caption}
          </caption>
        )}
        <ColumnHeaders
          columns={columns.map((column) => ({ ...column, sortable: column.sortValue !== undefined }))}
          sort={sort}
          onSort={(column) => setSort((current) => nextSort(current, column.id, column.firstDirection))}
        />
        <tbody>
          {shown.map((row, index) => (
            <tr key={rowKey(row, index)} lang={props.rowLang?.(row)}>
              {columns.map((column) =>
                column.rowHeader ? (
                  <th key={column.id} scope="row" class={column.cellClass?.(row)}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={column.id} class={column.cellClass?.(row)}>
                    {column.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
