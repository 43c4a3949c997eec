/** A series' identity: device, set, datapoint, row. */
export interface HistorySeriesKey {
  readonly deviceId: string;
  readonly setId: string;
  readonly datapointId: string;
  readonly row: string;
}

/**
 * Series ids known to exist, by device, set, datapoint and row: four Map lookups per value and no
 * key string built (a joined key per value cost a string allocation each on the hot write path).
 */
export class HistorySeriesIds {
  readonly #devices = new Map<string, Map<string, Map<string, Map<string, number>>>>();

  get(key: HistorySeriesKey): number | undefined {
    return this.#devices.get(key.deviceId)?.get(key.setId)?.get(key.datapointId)?.get(key.row);
  }

  set(key: HistorySeriesKey, id: number): void {
    const sets = child(this.#devices, key.deviceId);
    child(child(sets, key.setId), key.datapointId).set(key.row, id);
  }
}

function child<V>(map: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let found = map.get(key);
  if (found === undefined) {
    found = new Map();
    map.set(key, found);
  }
  return found;
}
