import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { BLOCK_ROWS } from './block-window.js';
import { ColumnHeaders, type ColumnHeader } from './column-headers.js';
import { DataRow, type Column, type RowSelection } from './data-row.js';
import { TableScroll } from './table-scroll.js';
import { nextSort, sortRows, type SortState } from './table-sort.js';
import { useBlockWindow } from './use-block-window.js';

export type { Column, RowSelection } from './data-row.js';

export interface DataTableProps<Row> {
  readonly columns: readonly Column<Row>[];
  /** The rows; undefined while they load (the table says `loading` instead). */
  readonly rows: readonly Row[] | undefined;
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
  /** Shown instead of the table while `rows` is undefined (default "Loading…"). */
  readonly loading?: ComponentChildren;
  readonly class?: string;
  /** The order the rows come in, when they come sorted by one of the columns (newest first). */
  readonly initialSort?: SortState;
  /**
   * The sort the rows come in when the page sorts them itself (its own order rules, or the order
   * kept in the address): the table then shows this sort, draws the rows as given and reports a
   * pick of a sortable column (one with `sortValue`) to `onSort`.
   */
  readonly sort?: SortState;
  readonly onSort?: (column: ColumnHeader) => void;
  /** The language of a row's text, when it is not the page's. */
  readonly rowLang?: (row: Row) => string | undefined;
  /** A first column of boxes that select rows, and one in the header for every row shown. */
  readonly selection?: RowSelection<Row>;
  /**
   * Whether two rows show the same (a reload gives new objects, most of them unchanged): a row
   * draws again only when its row differs by this, its place or selection changed, or the
   * columns did. Without it, only the same object counts as unchanged.
   */
  readonly rowEquals?: (a: Row, b: Row) => boolean;
  /**
   * Past this many rows, only the blocks of `BLOCK_ROWS` rows near the viewport or the focus
   * are drawn (`useBlockWindow`), the others are placeholders of their height, and
   * `aria-rowcount` / `aria-rowindex` tell assistive technology the table's true size. Rows are
   * then keyed by place (a sort updates the drawn rows instead of moving them between blocks).
   */
  readonly windowFrom?: number;
}

/**
 * The console's table: a caption or heading names it, one column header per column (they stay
 * in view while the page scrolls), the cell that names each row is a row header, sortable columns
 * sort on the client (`aria-sort` says how), an empty list and a list still loading are a
 * sentence instead, and on a narrow screen the table scrolls sideways inside its own box
 * (`TableScroll`) instead of the page. Optionally a selection column and, for long lists, only
 * the rows near the viewport drawn.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const { columns, rows = [], rowKey, caption, initialSort, selection } = props;
  const [ownSort, setOwnSort] = useState<SortState | undefined>(initialSort);
  const captionId = useId();
  const controlled = props.sort !== undefined;
  const sort = controlled ? props.sort : ownSort;
  // A table that may window keeps its blocks at every size: a filter that takes it below
  // `windowFrom` then updates the drawn rows in place instead of building a new body.
  const inBlocks = props.windowFrom !== undefined;
  const windowed = inBlocks && rows.length > (props.windowFrom ?? 0);
  const blocks = Math.ceil(rows.length / BLOCK_ROWS);
  const win = useBlockWindow(inBlocks ? blocks : 0);
  const all = useRef<HTMLInputElement>(null);
  const picked = selection ? countSelected(rows, selection) : 0;
  useEffect(() => {
    if (all.current) all.current.indeterminate = picked > 0 && picked < rows.length;
  }, [picked, rows.length]);
  if (props.rows === undefined) return <p class="table-loading">{props.loading ?? 'Loading…'}</p>;
  if (rows.length === 0 && props.empty !== undefined) return <p class="table-empty">{props.empty}</p>;
  const sorted = columns.find((column) => column.id === sort?.column);
  const shown =
    controlled ||
    sort === undefined ||
    sorted?.sortValue === undefined ||
    (initialSort?.column === sort.column && initialSort.direction === sort.direction)
      ? rows
      : sortRows(rows, sorted.sortValue, sort.direction);
  const labelledBy = caption === undefined ? props.labelledBy : captionId;
  const onSort = (column: ColumnHeader) => {
    if (props.onSort) props.onSort(column);
    if (!controlled) setOwnSort((current) => nextSort(current, column.id, column.firstDirection));
  };
  const drawRow = (row: Row, index: number, key: string | number) => (
    <DataRow
      key={key}
      row={row}
      columns={columns}
      rowIndex={inBlocks ? index + 2 : undefined}
      lang={props.rowLang?.(row)}
      selection={selection}
      selected={selection?.selected.has(selection.key(row)) ?? false}
      rowEquals={props.rowEquals}
    />
  );
  const columnCount = columns.length + (selection ? 1 : 0);
  return (
    <TableScroll labelledBy={labelledBy}>
      <table
        class={props.class ? `data-table ${props.class}` : 'data-table'}
        aria-labelledby={caption === undefined ? props.labelledBy : undefined}
        aria-rowcount={inBlocks ? rows.length + 1 : undefined}
        onFocusIn={windowed ? win.onFocusIn : undefined}
      >
        {caption === undefined ? null : (
          <caption id={captionId} class={props.captionHidden ? 'visually-hidden' : undefined}>
            {typeof caption === 'function' ? caption(sort) : caption}
          </caption>
        )}
        <ColumnHeaders
          columns={columns.map((column) => ({ ...column, sortable: column.sortValue !== undefined }))}
          sort={sort}
          onSort={onSort}
          rowIndex={inBlocks ? 1 : undefined}
          leading={
            selection ? (
              <td class="select-cell">
                <input
                  ref={all}
                  type="checkbox"
                  aria-label={selection.allLabel}
                  checked={rows.length > 0 && picked === rows.length}
                  onChange={(e) => selection.onSelectAll(e.currentTarget.checked)}
                />
              </td>
            ) : null
          }
        />
        {inBlocks ? (
          Array.from({ length: blocks }, (_, block) => {
            const start = block * BLOCK_ROWS;
            const count = Math.min(BLOCK_ROWS, rows.length - start);
            return !windowed || win.shown.includes(block) ? (
              <tbody key={block} data-block={block} ref={win.ref(block)}>
                {/* Keyed by place: a sort or a reload updates the drawn rows in place instead of
                    building new ones (every input is controlled, so nothing sticks to the place). */}
                {shown.slice(start, start + count).map((row, i) => drawRow(row, start + i, start + i))}
              </tbody>
            ) : (
              <tbody key={block} data-block={block} data-placeholder="" ref={win.ref(block)}>
                <tr aria-hidden="true" class="rows-placeholder">
                  <td colSpan={columnCount} style={{ height: `${win.height(block, count)}px` }} />
                </tr>
              </tbody>
            );
          })
        ) : (
          <tbody>{shown.map((row, index) => drawRow(row, index, rowKey(row, index)))}</tbody>
        )}
      </table>
    </TableScroll>
  );
}

/** How many of `rows` are selected. */
function countSelected<Row>(rows: readonly Row[], selection: RowSelection<Row>): number {
  let count = 0;
  for (const row of rows) if (selection.selected.has(selection.key(row))) count++;
  return count;
}
