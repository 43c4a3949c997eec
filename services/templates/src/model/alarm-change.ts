import type { DeviceAlarmRecord } from './device-record.js';

/** A raise or clear computed by the pipeline, with the event body to store when it applies. */
export interface AlarmChange {
  readonly type: 'alarm-raised' | 'alarm-cleared';
  readonly at: number;
  readonly alarm: DeviceAlarmRecord;
  readonly body: Readonly<Record<string, unknown>>;
}
