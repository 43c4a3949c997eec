import { describe, expect, it } from 'vitest';
import { HistorySeriesIds } from './history-series-ids.js';

const key = (deviceId: string, setId: string, datapointId: string, row: string) => ({
  deviceId,
  setId,
  datapointId,
  row,
});

describe('HistorySeriesIds', () => {
  it('keeps scalars and table rows apart, and a datapoint with both', () => {
    const ids = new HistorySeriesIds();
    ids.set(key('d1', 'system', 'name', ''), 1);
    ids.set(key('d1', 'interfaces', 'ifDescr', '1'), 2);
    ids.set(key('d1', 'interfaces', 'ifDescr', '2'), 3);
    ids.set(key('d2', 'system', 'name', ''), 4);
    expect(ids.get(key('d1', 'system', 'name', ''))).toBe(1);
    expect(ids.get(key('d1', 'system', 'name', '1'))).toBeUndefined();
    expect(ids.get(key('d1', 'interfaces', 'ifDescr', '1'))).toBe(2);
    expect(ids.get(key('d1', 'interfaces', 'ifDescr', '2'))).toBe(3);
    expect(ids.get(key('d1', 'interfaces', 'ifDescr', ''))).toBeUndefined();
    expect(ids.get(key('d2', 'system', 'name', ''))).toBe(4);
    expect(ids.get(key('d3', 'system', 'name', ''))).toBeUndefined();

    // A row after the scalar, a scalar after rows, and a new id for a known one.
    ids.set(key('d1', 'system', 'name', '7'), 5);
    ids.set(key('d1', 'interfaces', 'ifDescr', ''), 6);
    ids.set(key('d2', 'system', 'name', ''), 7);
    expect(ids.get(key('d1', 'system', 'name', ''))).toBe(1);
    expect(ids.get(key('d1', 'system', 'name', '7'))).toBe(5);
    expect(ids.get(key('d1', 'interfaces', 'ifDescr', ''))).toBe(6);
    expect(ids.get(key('d1', 'interfaces', 'ifDescr', '2'))).toBe(3);
    expect(ids.get(key('d2', 'system', 'name', ''))).toBe(7);
  });
});
