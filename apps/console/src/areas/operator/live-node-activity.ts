import type { AlarmWire, NodeLogWire } from './node-wire.js';

/** What the node manager says happened to an alarm (`action` of an alarm frame). */
export type AlarmAction = 'raised' | 'updated' | 'acknowledged' | 'unacknowledged' | 'cleared' | 'commented';

/**
 * The active-alarm list after one alarm frame: `cleared` removes the alarm (matched by `eventId`),
 * any other action puts the alarm's new form in its place, or inserts it newest first when it was
 * not listed. Returns a new array; `list` is not changed.
 */
export function applyAlarmFrame(list: readonly AlarmWire[], action: string, alarm: AlarmWire): AlarmWire[] {
  const rest = list.filter((a) => a.eventId !== alarm.eventId);
  if (action === 'cleared') return rest;
  if (rest.length < list.length) return list.map((a) => (a.eventId === alarm.eventId ? alarm : a));
  const at = rest.findIndex((a) => a.eventTime < alarm.eventTime);
  return at === -1 ? [...rest, alarm] : [...rest.slice(0, at), alarm, ...rest.slice(at)];
}

/**
 * The newest-first log list after one pushed entry: inserted before the first older entry (equal
 * times keep arrival order, newest arrival first) and cut to `limit` entries.
 */
export function addLogEntry(list: readonly NodeLogWire[], entry: NodeLogWire, limit: number): NodeLogWire[] {
  const at = list.findIndex((l) => l.time <= entry.time);
  const next = at === -1 ? [...list, entry] : [...list.slice(0, at), entry, ...list.slice(at)];
  return next.slice(0, limit);
}
