import { useMemo } from 'preact/hooks';
import type { ColumnHeader } from '../../shell/column-headers.js';
import { DataTable, type RowSelection } from '../../shell/data-table.js';
import type { SortState } from '../../shell/table-sort.js';
import { alarmColumns, alarmKey, alarmName, sameAlarm, type AlarmRowAction } from './alarm-columns.js';
import type { AlarmWire } from './node-wire.js';

/**
 * Longer lists draw only the blocks of rows near the viewport or the focus (`DataTable`'s
 * `windowFrom`), so a sort or a filter of 1,000 alarms redraws a block or two, not 100 rows.
 */
const WINDOW_FROM = 100;

/**
 * The alarm table (`DataTable`) in the order given. Up to `WINDOW_FROM` alarms every row is
 * drawn; past that only the blocks near the viewport or next to the focused row are. With
 * `canWrite` the first column selects (its header box: every alarm shown) and the last holds the
 * actions.
 */
export function AlarmTable(props: {
  readonly alarms: readonly AlarmWire[] | undefined;
  readonly sort: SortState;
  readonly onSort: (column: ColumnHeader) => void;
  readonly canWrite: boolean;
  readonly selected: ReadonlySet<string>;
  readonly onSelect: (alarm: AlarmWire, selected: boolean) => void;
  readonly onSelectAll: (selected: boolean) => void;
  readonly onAction: (alarm: AlarmWire, action: AlarmRowAction) => void;
  /** The sentence shown instead of an empty table. */
  readonly empty: string;
}) {
  const { canWrite, selected, onSelect, onSelectAll, onAction } = props;
  const columns = useMemo(() => alarmColumns(canWrite ? onAction : undefined), [canWrite, onAction]);
  const selection = useMemo<RowSelection<AlarmWire> | undefined>(
    () =>
      canWrite
        ? {
            selected,
            key: alarmKey,
            label: (alarm) => `Select ${alarmName(alarm)}`,
            allLabel: 'Select every alarm shown',
            onSelect,
            onSelectAll,
          }
        : undefined,
    [canWrite, selected, onSelect, onSelectAll],
  );
  return (
    <DataTable
      class="alarm-table"
      columns={columns}
      rows={props.alarms}
      rowKey={alarmKey}
      rowEquals={sameAlarm}
      caption={(sort) =>
        `Active alarms, sorted by ${columns.find((c) => c.id === sort?.column)?.header ?? ''}, ${sort?.direction ?? ''}`
      }
      captionHidden
      sort={props.sort}
      onSort={props.onSort}
      selection={selection}
      windowFrom={WINDOW_FROM}
      loading="Loading alarms…"
      empty={props.empty}
    />
  );
}
