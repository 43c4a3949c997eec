import { createHash } from 'node:crypto';
/** A device as stored: driver secrets are sealed (`enc:v1:...`). */
export interface DeviceRecord {
  readonly id: string;
  readonly name: string;
  readonly templateId: string;
  readonly templateVersion: string;
  readonly variables: Readonly<Record<string, string>>;
  readonly drivers: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly state: 'unknown' | 'up' | 'down';
  readonly lastError: DeviceErrorRecord | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface DeviceErrorRecord {
  readonly code: string;
  readonly message: string;
  readonly originType: string;
  readonly at: number;
}

/** One raised alarm of a device. `row` is null for a map set. */
export interface DeviceAlarmRecord {
  readonly datapointSetId: string;
  readonly datapointId: string;
  readonly row: string | null;
  readonly severity: number;
  readonly text: string;
  readonly textHelp: string;
  readonly raisedAt: number;
  readonly value: unknown;
  /** Who acknowledged it and when (epoch ms); null while it is not acknowledged. */
  readonly acknowledged: { readonly by: string; readonly at: number } | null;
}

/** One stored event: `alarm-raised`, `alarm-cleared`, `log`, `state`. */
export interface DeviceEventRecord {
  readonly seq: number;
  readonly deviceId: string;
  readonly type: string;
  readonly at: number;
  readonly body: Readonly<Record<string, unknown>>;
}

/** What names one raised alarm of a device: its datapoint, table row and severity. */
export type DeviceAlarmKey = Pick<DeviceAlarmRecord, 'datapointSetId' | 'datapointId' | 'row' | 'severity'>;

/** Whether two alarms are the same raised alarm. */
export function sameAlarm(a: DeviceAlarmKey, b: DeviceAlarmKey): boolean {
  return (
    a.datapointSetId === b.datapointSetId &&
    a.datapointId === b.datapointId &&
    (a.row ?? null) === (b.row ?? null) &&
    a.severity === b.severity
  );
}

/** Length of an alarm id (22 base64url characters: 128 bits of a SHA-256). */
export const ALARM_ID_LENGTH = 22;

/**
 * The id of a raised alarm in the API (`/devices/{id}/alarms/{alarmId}/...`): the first 128 bits
 * of the SHA-256 of its key (`[set, datapoint, row, severity]` as JSON), in base64url. Short
 * whatever the datapoint ids and row keys, stable across restarts and instances, and found among
 * the few alarms of one device by computing it again.
 */
export function deviceAlarmId(key: DeviceAlarmKey): string {
  return createHash('sha256')
    .update(JSON.stringify([key.datapointSetId, key.datapointId, key.row, key.severity]))
    .digest('base64url')
    .slice(0, ALARM_ID_LENGTH);
}
