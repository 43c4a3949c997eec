import { AlarmRow, type AlarmRowAction } from './alarm-row.js';
import { BLOCK_ROWS } from './block-window.js';
import type { AlarmWire } from './node-wire.js';
import { useBlockWindow } from './use-block-window.js';

/** Longer lists draw only the rows near the viewport or the focus (`useBlockWindow`). */
const WINDOW_FROM = 200;

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
  const shown = new Set(windowed ? win.shown : Array.from({ length: blocks }, (_, b) => b));
  return (
    <div class="table-wrap">
      <table aria-rowcount={alarms.length + 1} onFocusIn={win.onFocusIn}>
        <caption class="visually-hidden">Active alarms, newest first</caption>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">Alarm</th>
            <th scope="col">Node</th>
            <th scope="col">Source</th>
            <th scope="col">Severity</th>
            <th scope="col">State</th>
            <th scope="col">Raised</th>
            <th scope="col">Information</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
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
                <td colSpan={8} style={{ height: `${win.height(block, rows.length)}px` }} />
              </tr>
            </tbody>
          );
        })}
      </table>
    </div>
  );
}
