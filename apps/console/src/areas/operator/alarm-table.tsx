import { useId } from 'preact/hooks';
import { ColumnHeaders, type ColumnHeader } from '../../shell/column-headers.js';
import { TableScroll } from '../../shell/table-scroll.js';
import type { SortState } from '../../shell/table-sort.js';
import { AlarmRow, type AlarmRowAction } from './alarm-row.js';
import { BLOCK_ROWS } from './block-window.js';
import type { AlarmWire } from './node-wire.js';
import { useBlockWindow } from './use-block-window.js';

/** Longer lists draw only the rows near the viewport or the focus (`useBlockWindow`). */
const WINDOW_FROM = 200;

/** The columns, in the order `AlarmRow` draws its cells. */
const COLUMNS: readonly ColumnHeader[] = [
  'Alarm',
  'Node',
  'Source',
  'Severity',
  'State',
  'Raised',
  'Information',
  'Actions',
].map((header) => ({ id: header.toLowerCase(), header }));

/** The API pages alarms newest first, so the list can only be read in that order. */
const NEWEST_FIRST: SortState = { column: 'raised', direction: 'descending' };

/**
 * The alarm table, newest first, one `<tbody>` per block of `BLOCK_ROWS` alarms. Up to
 * `WINDOW_FROM` alarms every row is drawn; past that only the blocks near the viewport or next to
 * the focused row are, the others are placeholders of their height, and `aria-rowcount` /
 * `aria-rowindex` tell assistive technology the table's true size.
 */
export function AlarmTable(props: {
  readonly alarms: readonly AlarmWire[];
  readonly onAction: (alarm: AlarmWire, action: AlarmRowAction) => void;
}) {
  const { alarms, onAction } = props;
  const blocks = Math.ceil(alarms.length / BLOCK_ROWS);
  const win = useBlockWindow(blocks);
  const windowed = alarms.length > WINDOW_FROM;
  const captionId = useId();
  const shown = new Set(windowed ? win.shown : Array.from({ length: blocks }, (_, b) => b));
  return (
    <TableScroll labelledBy={captionId}>
      <table aria-rowcount={alarms.length + 1} onFocusIn={win.onFocusIn}>
        <caption id={captionId} class="visually-hidden">
          Active alarms, newest first
        </caption>
        <ColumnHeaders columns={COLUMNS} sort={NEWEST_FIRST} rowIndex={1} />
        {Array.from({ length: blocks }, (_, block) => {
          const start = block * BLOCK_ROWS;
          const rows = alarms.slice(start, start + BLOCK_ROWS);
          return shown.has(block) ? (
            <tbody key={block} data-block={block} ref={win.ref(block)}>
              {rows.map((alarm, i) => (
                <AlarmRow key={alarm.eventId} alarm={alarm} rowIndex={start + i + 2} onAction={onAction} />
              ))}
            </tbody>
          ) : (
            <tbody key={block} data-block={block} data-placeholder="" ref={win.ref(block)}>
              <tr aria-hidden="true" class="rows-placeholder">
                <td colSpan={COLUMNS.length} style={{ height: `${win.height(block, rows.length)}px` }} />
              </tr>
            </tbody>
          );
        })}
      </table>
    </TableScroll>
  );
}
