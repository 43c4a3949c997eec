import { innerMap } from '@triad/common';
/** A series' identity: device, set, datapoint, row. */
export interface HistorySeriesKey {
  readonly deviceId: string;
  readonly setId: string;
  readonly datapointId: string;
  readonly row: string;
}

/** The series of one datapoint: the id itself for the row `''` alone (a scalar), else ids by row. */
type RowIds = number | Map<string, number>;

/**
 * Series ids known to exist, by device, set, datapoint and row: Map lookups per value and no key
 * string built (a joined key per value cost a string allocation each on the hot write path). A
 * scalar datapoint (row `''` only, the common case) holds its id directly instead of a Map of one
 * row: a Map each cost about 250 bytes, 20 per device of 20 scalars.
 */
export class HistorySeriesIds {
  readonly #devices = new Map<string, Map<string, Map<string, RowIds>>>();

  get(key: HistorySeriesKey): number | undefined {
    const rows = this.#devices.get(key.deviceId)?.get(key.setId)?.get(key.datapointId);
    if (typeof rows === 'number') return key.row === '' ? rows : undefined;
    return rows?.get(key.row);
  }

  set(key: HistorySeriesKey, id: number): void {
    const datapoints = innerMap(innerMap(this.#devices, key.deviceId), key.setId);
    const rows = datapoints.get(key.datapointId);
    if (key.row === '' && (rows === undefined || typeof rows === 'number')) datapoints.set(key.datapointId, id);
    else if (rows instanceof Map) rows.set(key.row, id);
    else {
      const ids = new Map<string, number>(rows === undefined ? [] : [['', rows]]);
      ids.set(key.row, id);
      datapoints.set(key.datapointId, ids);
    }
  }
}
