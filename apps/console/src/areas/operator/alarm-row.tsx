import { Component } from 'preact';
import { AlarmStateText, SeverityBadge, whenText } from './alarm-severity.js';
import type { AlarmWire } from './node-wire.js';

/** What a person can do to an alarm from its row; `clear` and `comment` open a dialog first. */
export type AlarmRowAction = 'acknowledge' | 'unacknowledge' | 'clear' | 'comment';

/** The alarm's identity for the actions and the selection: its id and its source. */
export function alarmKey(alarm: AlarmWire): string {
  return `${alarm.alarmId}\n${alarm.rawSrc}`;
}

/** Props of `AlarmRow`. */
export interface AlarmRowProps {
  readonly alarm: AlarmWire;
  /** The row's `aria-rowindex`: its place in the whole table, header row 1. */
  readonly rowIndex: number;
  /** With the `write` right: a selection box and the action buttons; without, neither. */
  readonly canWrite: boolean;
  readonly selected: boolean;
  readonly onSelect: (alarm: AlarmWire, selected: boolean) => void;
  readonly onAction: (alarm: AlarmWire, action: AlarmRowAction) => void;
}

/** The same alarm as shown: a reload of the list gives new objects, most of them unchanged. */
function sameAlarm(a: AlarmWire, b: AlarmWire): boolean {
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

/**
 * One row of the alarm table: selection box, the alarm's facts (severity and state as icon and
 * word, who acknowledged and commented and when) and its Acknowledge/Unacknowledge, Clear and
 * Comment buttons. It draws again only when its alarm, place or selection changed, so selecting
 * or a live reload of 1,000 alarms redraws the few rows that differ.
 */
export class AlarmRow extends Component<AlarmRowProps> {
  override shouldComponentUpdate(next: AlarmRowProps): boolean {
    const now = this.props;
    return (
      next.rowIndex !== now.rowIndex ||
      next.selected !== now.selected ||
      next.canWrite !== now.canWrite ||
      !sameAlarm(next.alarm, now.alarm)
    );
  }

  override render() {
    const { alarm, canWrite, selected, onSelect, onAction } = this.props;
    const name = `${alarm.alarmId} on ${alarm.src.nodeName}`;
    return (
      <tr aria-rowindex={this.props.rowIndex} class={selected ? 'selected' : undefined}>
        {canWrite ? (
          <td class="select-cell">
            <input
              type="checkbox"
              aria-label={`Select ${name}`}
              checked={selected}
              onChange={(e) => onSelect(alarm, e.currentTarget.checked)}
            />
          </td>
        ) : null}
        <th scope="row">{alarm.alarmId}</th>
        <td>{alarm.src.nodeName}</td>
        <td>{alarm.src.custom}</td>
        <td>
          <SeverityBadge severity={alarm.severity} />
        </td>
        <td>
          <AlarmStateText state={alarm.state} ackInfo={alarm.ackInfo} />
        </td>
        <td>{whenText(alarm.eventTime)}</td>
        <td>
          {alarm.additionalInformation}
          {alarm.comments.length > 0 ? (
            <ul class="alarm-comments" aria-label={`Comments on ${name}`}>
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
        </td>
        {canWrite ? (
          <td>
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
          </td>
        ) : null}
      </tr>
    );
  }
}
