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
}

/** One stored event: `alarm-raised`, `alarm-cleared`, `log`, `state`. */
export interface DeviceEventRecord {
  readonly seq: number;
  readonly deviceId: string;
  readonly type: string;
  readonly at: number;
  readonly body: Readonly<Record<string, unknown>>;
}
