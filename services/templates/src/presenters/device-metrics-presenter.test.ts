import { describe, expect, it } from 'vitest';
import type { DatapointResult } from '@triad/device-templates';
import { presentDeviceMetrics } from './device-metrics-presenter.js';

function result(datapointId: string, value: unknown, tableIndex?: string): DatapointResult {
  return {
    origin: 'o',
    datapointSetId: 'system',
    datapointId,
    value,
    rawValue: value,
    quality: 'good',
    timestamp: 0,
    ...(tableIndex === undefined ? {} : { tableIndex }),
  };
}

describe('presentDeviceMetrics', () => {
  it('writes numbers, booleans as 0/1 and table rows, skipping text and bad values', () => {
    const text = presentDeviceMetrics(
      [
        {
          id: 'd1',
          name: 'Pump "A"\\1',
          values: [result('temp', 21.5), result('on', true), result('label', 'x'), result('bad', null)],
        },
        { id: 'd0', name: 'switch', values: [result('ifInOctets', 7, '3')] },
      ],
      100,
      { queued: 2, written: 40, dropped: 1 },
    );
    expect(text.split('\n').filter((l) => l.startsWith('triad_device_value{'))).toEqual([
      'triad_device_value{device="d0",name="switch",set="system",datapoint="ifInOctets",row="3"} 7',
      'triad_device_value{device="d1",name="Pump \\"A\\"\\\\1",set="system",datapoint="temp"} 21.5',
      'triad_device_value{device="d1",name="Pump \\"A\\"\\\\1",set="system",datapoint="on"} 1',
    ]);
    expect(text).toContain('triad_device_value_series_omitted 0\n');
    expect(text).toContain('triad_device_history_dropped_total 1\n');
  });

  it('writes at most maxSeries samples, first devices by id, and counts the rest', () => {
    const devices = Array.from({ length: 5 }, (_, i) => ({
      id: `d${4 - i}`,
      name: 'n',
      values: [result('a', i), result('b', i)],
    }));
    const text = presentDeviceMetrics(devices, 3, undefined);
    const samples = text.split('\n').filter((l) => l.startsWith('triad_device_value{'));
    expect(samples.map((l) => /device="(\w+)".*datapoint="(\w)"/.exec(l)?.slice(1).join('.'))).toEqual([
      'd0.a',
      'd0.b',
      'd1.a',
    ]);
    expect(text).toContain('triad_device_value_series_omitted 7\n');
    expect(text).not.toContain('triad_device_history');
  });
});
