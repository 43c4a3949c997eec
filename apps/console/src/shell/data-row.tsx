import { Component, type ComponentChildren } from 'preact';
import type { ColumnHeader } from './column-headers.js';
import type { SortValue } from './table-sort.js';

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

/** The selection column of a `DataTable`: which rows are selected, and what a box does. */
export interface RowSelection<Row> {
  /** The keys (`key`) of the selected rows. */
  readonly selected: ReadonlySet<string>;
  /** A row's key in `selected`. */
  readonly key: (row: Row) => string;
  /** The name of a row's box (`Select disk_full on a@h`). */
  readonly label: (row: Row) => string;
  /** The name of the header's box, which selects every row shown. */
  readonly allLabel: string;
  readonly onSelect: (row: Row, selected: boolean) => void;
  readonly onSelectAll: (selected: boolean) => void;
}

/** Props of `DataRow`. */
export interface DataRowProps<Row> {
  readonly row: Row;
  readonly columns: readonly Column<Row>[];
  /** The row's `aria-rowindex` in a table that draws only some of its rows (header row 1). */
  readonly rowIndex: number | undefined;
  readonly lang: string | undefined;
  readonly selection: RowSelection<Row> | undefined;
  readonly selected: boolean;
  readonly rowEquals: ((a: Row, b: Row) => boolean) | undefined;
}

/**
 * One row of a `DataTable`. It draws again only when its row (by `rowEquals`), place, selection
 * or the columns changed, so selecting or a live reload of 1,000 rows redraws the few that differ
 * (the page keeps its columns in a memo for that).
 */
export class DataRow<Row> extends Component<DataRowProps<Row>> {
  override shouldComponentUpdate(next: DataRowProps<Row>): boolean {
    const now = this.props;
    return (
      next.rowIndex !== now.rowIndex ||
      next.selected !== now.selected ||
      next.columns !== now.columns ||
      next.lang !== now.lang ||
      next.selection?.onSelect !== now.selection?.onSelect ||
      (next.row !== now.row && !(next.rowEquals?.(now.row, next.row) ?? false))
    );
  }

  override render() {
    const { row, columns, selection, selected } = this.props;
    return (
      <tr aria-rowindex={this.props.rowIndex} lang={this.props.lang} class={selected ? 'selected' : undefined}>
        {selection ? (
          <td class="select-cell">
            <input
              type="checkbox"
              aria-label={selection.label(row)}
              checked={selected}
              onChange={(e) => selection.onSelect(row, e.currentTarget.checked)}
            />
          </td>
        ) : null}
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
    );
  }
}
