import { useEffect, useId, useRef } from 'preact/hooks';
import type { ColumnHeader } from '../../shell/column-headers.js';
import { TableScroll } from '../../shell/table-scroll.js';
import type { SortState } from '../../shell/table-sort.js';
import { AlarmRow, alarmKey, type AlarmRowAction } from './alarm-row.js';
import { BLOCK_ROWS } from './block-window.js';
import type { AlarmWire } from './node-wire.js';
import { useBlockWindow } from './use-block-window.js';

/** Longer lists draw only the rows near the viewport or the focus (`useBlockWindow`). */
const WINDOW_FROM = 200;

/** The columns after the selection box, in the order `AlarmRow` draws its cells. */
const COLUMNS: readonly ColumnHeader[] = [
  { id: 'alarm', header: 'Alarm', sortable: true },
  { id: 'node', header: 'Node', sortable: true },
  { id: 'source', header: 'Source', sortable: true },
  { id: 'severity', header: 'Severity', sortable: true },
  { id: 'state', header: 'State', sortable: true },
  { id: 'raised', header: 'Raised', sortable: true, firstDirection: 'descending' },
  { id: 'information', header: 'Information' },
];
const ACTIONS: ColumnHeader = { id: 'actions', header: 'Actions' };

/**
 * The alarm table in the order given, one `<tbody>` per block of `BLOCK_ROWS` alarms. Up to
 * `WINDOW_FROM` alarms every row is drawn; past that only the blocks near the viewport or next to
 * the focused row are, the others are placeholders of their height, and `aria-rowcount` /
 * `aria-rowindex` tell assistive technology the table's true size. With `canWrite` the first
 * column selects (its header box: every alarm shown) and the last holds the actions.
 */
export function AlarmTable(props: {
  readonly alarms: readonly AlarmWire[];
  readonly sort: SortState;
  readonly onSort: (column: ColumnHeader) => void;
  readonly canWrite: boolean;
  readonly selected: ReadonlySet<string>;
  readonly onSelect: (alarm: AlarmWire, selected: boolean) => void;
  readonly onSelectAll: (selected: boolean) => void;
  readonly onAction: (alarm: AlarmWire, action: AlarmRowAction) => void;
}) {
  const { alarms, canWrite, selected, onSelect, onAction } = props;
  const blocks = Math.ceil(alarms.length / BLOCK_ROWS);
  const win = useBlockWindow(blocks);
  const windowed = alarms.length > WINDOW_FROM;
  const captionId = useId();
  const shown = new Set(windowed ? win.shown : Array.from({ length: blocks }, (_, b) => b));
  const picked = canWrite ? alarms.filter((a) => selected.has(alarmKey(a))).length : 0;
  const columnCount = COLUMNS.length + (canWrite ? 2 : 0);
  const all = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (all.current) all.current.indeterminate = picked > 0 && picked < alarms.length;
  }, [picked, alarms.length]);
  const sortName = COLUMNS.find((c) => c.id === props.sort.column)?.header ?? '';
  return (
    <TableScroll labelledBy={captionId}>
      <table aria-rowcount={alarms.length + 1} onFocusIn={win.onFocusIn} class="alarm-table">
        <caption id={captionId} class="visually-hidden">
          Active alarms, sorted by {sortName}, {props.sort.direction}
        </caption>
        <thead>
          <tr aria-rowindex={1}>
            {canWrite ? (
              <td class="select-cell">
                <input
                  ref={all}
                  type="checkbox"
                  aria-label="Select every alarm shown"
                  checked={alarms.length > 0 && picked === alarms.length}
                  onChange={(e) => props.onSelectAll(e.currentTarget.checked)}
                />
              </td>
            ) : null}
            <ColumnHeaderCells
              columns={canWrite ? [...COLUMNS, ACTIONS] : COLUMNS}
              sort={props.sort}
              onSort={props.onSort}
            />
          </tr>
        </thead>
        {Array.from({ length: blocks }, (_, block) => {
          const start = block * BLOCK_ROWS;
          const rows = alarms.slice(start, start + BLOCK_ROWS);
          return shown.has(block) ? (
            <tbody key={block} data-block={block} ref={win.ref(block)}>
              {rows.map((alarm, i) => (
                // Keyed by place: a sort or a reload updates the drawn rows in place instead of
                // building new ones (every input is controlled, so nothing sticks to the place).
                <AlarmRow
                  key={start + i}
                  alarm={alarm}
                  rowIndex={start + i + 2}
                  canWrite={canWrite}
                  selected={selected.has(alarmKey(alarm))}
                  onSelect={onSelect}
                  onAction={onAction}
                />
              ))}
            </tbody>
          ) : (
            <tbody key={block} data-block={block} data-placeholder="" ref={win.ref(block)}>
              <tr aria-hidden="true" class="rows-placeholder">
                <td colSpan={columnCount} style={{ height: `${win.height(block, rows.length)}px` }} />
              </tr>
            </tbody>
          );
        })}
      </table>
    </TableScroll>
  );
}

const MARKS = { ascending: '▲', descending: '▼' } as const;

/**
 * The header cells of the alarm table, as `ColumnHeaders` draws them (a sort button with its
 * arrow, `aria-sort` on the sorted column), in a row that also holds the select-all box.
 */
function ColumnHeaderCells(props: {
  readonly columns: readonly ColumnHeader[];
  readonly sort: SortState;
  readonly onSort: (column: ColumnHeader) => void;
}) {
  return (
    <>
      {props.columns.map((column) => {
        const direction = props.sort.column === column.id ? props.sort.direction : undefined;
        return (
          <th key={column.id} scope="col" aria-sort={direction}>
            {column.sortable ? (
              <button type="button" class="sort-button" onClick={() => props.onSort(column)}>
                {column.header}
                <span class={direction ? 'sort-mark sorted' : 'sort-mark'} aria-hidden="true">
                  {direction ? MARKS[direction] : '↕'}
                </span>
              </button>
            ) : (
              column.header
            )}
          </th>
        );
      })}
    </>
  );
}
