import type { Column } from '../../shell/data-table.js';
import type { SortValue } from '../../shell/table-sort.js';
import { AlarmStateText, SeverityBadge, severityRank, whenText } from './alarm-severity.js';
import type { AlarmWire } from './node-wire.js';

/** What a person can do to an alarm from its row; `clear` and `comment` open a dialog first. */
export type AlarmRowAction = 'acknowledge' | 'unacknowledge' | 'clear' | 'comment';

const keys = new WeakMap<AlarmWire, string>();

/** The alarm's identity for the actions and the selection: its id and its source. */
export function alarmKey(alarm: AlarmWire): string {
  // Kept per alarm object: selecting among 1,000 alarms asks each for its key on every change.
  let key = keys.get(alarm);
  if (key === undefined) {
    key = `${alarm.alarmId}\n${alarm.rawSrc}`;
    keys.set(alarm, key);
  }
  return key;
}

/** `disk_full on a@h`: how the alarm's box, comments and actions are named. */
export function alarmName(alarm: AlarmWire): string {
  return `${alarm.alarmId} on ${alarm.src.nodeName}`;
}

/** The same alarm as shown: a reload of the list gives new objects, most of them unchanged. */
export function sameAlarm(a: AlarmWire, b: AlarmWire): boolean {
  return (
    a === b ||
    (a.eventId === b.eventId &&
      a.rawSrc === b.rawSrc &&
      a.state === b.state &&
      a.severity === b.severity &&
      a.additionalInformation === b.additionalInformation &&
      a.comments.length === b.comments.length &&
      a.ackInfo?.time === b.ackInfo?.time)
  );
}

/** What each sortable column sorts by; Raised sorts by the API's order (event ids), see `AlarmsPage`. */
export const ALARM_SORT_VALUES: Readonly<Record<string, (alarm: AlarmWire) => SortValue>> = {
  alarm: (a) => a.alarmId,
  node: (a) => a.src.nodeName,
  source: (a) => a.src.custom,
  severity: (a) => severityRank(a.severity),
  state: (a) => a.state,
  raised: (a) => a.eventTime,
};

const FACT_CELLS: readonly Column<AlarmWire>[] = [
  { id: 'alarm', header: 'Alarm', rowHeader: true, cell: (a) => a.alarmId },
  { id: 'node', header: 'Node', cell: (a) => a.src.nodeName },
  { id: 'source', header: 'Source', cell: (a) => a.src.custom },
  { id: 'severity', header: 'Severity', cell: (a) => <SeverityBadge severity={a.severity} /> },
  { id: 'state', header: 'State', cell: (a) => <AlarmStateText state={a.state} ackInfo={a.ackInfo} /> },
  { id: 'raised', header: 'Raised', firstDirection: 'descending', cell: (a) => whenText(a.eventTime) },
  { id: 'information', header: 'Information', cell: (a) => <AlarmInformation alarm={a} /> },
];
const FACTS = FACT_CELLS.map((column) => {
  const sortValue = ALARM_SORT_VALUES[column.id];
  return sortValue ? { ...column, sortValue } : column;
});

/**
 * The alarm table's columns: the alarm's facts (severity and state as icon and word, who
 * acknowledged and commented and when) and, with `onAction` (the `write` right), its
 * Acknowledge/Unacknowledge, Clear and Comment buttons. Keep the result in a memo: rows draw
 * again when their columns change.
 */
export function alarmColumns(
  onAction: ((alarm: AlarmWire, action: AlarmRowAction) => void) | undefined,
): readonly Column<AlarmWire>[] {
  if (!onAction) return FACTS;
  const actions: Column<AlarmWire> = {
    id: 'actions',
    header: 'Actions',
    cell: (alarm) => (
      <div class="row-actions" role="group" aria-label={`Actions on ${alarm.alarmId}`}>
        {alarm.state === 'new' ? (
          <button type="button" class="primary" onClick={() => onAction(alarm, 'acknowledge')}>
            Acknowledge
          </button>
        ) : (
          <button type="button" onClick={() => onAction(alarm, 'unacknowledge')}>
            Unacknowledge
          </button>
        )}
        <button type="button" onClick={() => onAction(alarm, 'clear')}>
          Clear…
        </button>
        <button type="button" onClick={() => onAction(alarm, 'comment')}>
          Comment…
        </button>
      </div>
    ),
  };
  return [...FACTS, actions];
}

/** The alarm's text and its comments, each with who wrote it and when. */
function AlarmInformation(props: { readonly alarm: AlarmWire }) {
  const { alarm } = props;
  return (
    <>
      {alarm.additionalInformation}
      {alarm.comments.length > 0 ? (
        <ul class="alarm-comments" aria-label={`Comments on ${alarmName(alarm)}`}>
          {alarm.comments.map((c, i) => (
            <li key={`${c.time}-${i}`}>
              <span class="who-when">
                {c.user}, {whenText(c.time)}:
              </span>{' '}
              {c.text}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
