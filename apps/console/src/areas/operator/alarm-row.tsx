import type { AlarmWire } from './node-wire.js';

/** What a person can do to an alarm from its row. */
export type AlarmRowAction = 'acknowledge' | 'unacknowledge' | 'clear' | 'comment';

/** One row of the alarm table: the alarm's facts and its Acknowledge/Unacknowledge, Clear and Comment buttons. */
export function AlarmRow(props: {
  readonly alarm: AlarmWire;
  /** The row's `aria-rowindex`: its place in the whole table, header row 1. */
  readonly rowIndex: number;
  readonly onAction: (alarm: AlarmWire, action: AlarmRowAction) => void;
}) {
  const { alarm, onAction } = props;
  return (
    <tr aria-rowindex={props.rowIndex}>
      <th scope="row">{alarm.alarmId}</th>
      <td>{alarm.src.nodeName}</td>
      <td>{alarm.src.custom}</td>
      <td>{alarm.severity}</td>
      <td>{alarm.state}</td>
      <td>{new Date(alarm.eventTime).toLocaleString()}</td>
      <td>
        {alarm.additionalInformation}
        {alarm.comments.map((c) => (
          <div key={c.time}>
            {c.user}: {c.text}
          </div>
        ))}
      </td>
      <td>
        <div class="row-actions" role="group" aria-label={`Actions on ${alarm.alarmId}`}>
          {alarm.state === 'new' ? (
            <button type="button" class="primary" onClick={() => onAction(alarm, 'acknowledge')}>
              Acknowledge
            </button>
          ) : (
            <button type="button" class="primary" onClick={() => onAction(alarm, 'unacknowledge')}>
              Unacknowledge
            </button>
          )}
          <button type="button" onClick={() => onAction(alarm, 'clear')}>
            Clear
          </button>
          <button type="button" onClick={() => onAction(alarm, 'comment')}>
            Comment
          </button>
        </div>
      </td>
    </tr>
  );
}
