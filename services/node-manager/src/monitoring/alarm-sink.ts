import type { RaiseAlarmInput } from '../model/alarm-record.js';

/**
 * Where the monitors raise and clear alarms: the few calls they make of the service's alarm
 * commands (`AlarmCommands`), so that monitoring depends on no use case.
 */
export interface AlarmSink {
  /** Raises an alarm, or updates the active one with the same id and source. */
  raise(input: RaiseAlarmInput): Promise<unknown>;
  /** Clears the active alarm with this id and raw source; false when there is none. */
  clear(alarmId: string, rawSrc: string): Promise<boolean>;
  /** Whether an alarm with this id and raw source is active. */
  isActive(alarmId: string, rawSrc: string): Promise<boolean>;
}
