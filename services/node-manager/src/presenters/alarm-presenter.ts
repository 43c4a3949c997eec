import type { AlarmRecord } from '../model/alarm-record.js';
import { eventIdOf, eventTimeOf } from '../model/erlang-terms.js';

/** An alarm exactly as the alarm lists show it (every field of the spec, in its order). */
export function presentAlarm(alarm: AlarmRecord) {
  return {
    alarmId: alarm.alarmId,
    alarmType: alarm.alarmType ?? null,
    src: { nodeId: alarm.nodeId, nodeName: alarm.nodeName, custom: alarm.custom, elarmServer: alarm.elarmServer },
    eventTime: eventTimeOf(alarm.eventUs),
    eventId: eventIdOf(alarm.eventUs),
    severity: alarm.severity,
    probableCause: alarm.probableCause,
    proposedRepairAction: alarm.proposedRepairAction,
    description: alarm.description,
    additionalInformation: alarm.additionalInformation,
    correlatedEvents: alarm.correlatedEvents,
    comments: alarm.comments.map((c) => ({ user: c.user, time: c.time, text: c.text })),
    trend: alarm.trend ?? null,
    threshold: alarm.threshold ?? null,
    state: alarm.state,
    ackInfo: alarm.ackUser === null ? null : { user: alarm.ackUser, time: alarm.ackTime },
    rawSrc: alarm.rawSrc,
  };
}

/** The reply of the alarm lists, `{"alarms": [...]}`, from alarms already presented as JSON text. */
export function presentAlarmList(presented: readonly string[]): string {
  return `{"alarms":[${presented.join(',')}]}`;
}

/** An alarm as the alarm lists show it. */
export type AlarmReply = ReturnType<typeof presentAlarm>;
