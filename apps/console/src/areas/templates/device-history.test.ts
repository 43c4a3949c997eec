import { describe, expect, it } from 'vitest';
import { describeHistory, historySeries, stepText, trendChoices, trendValueFormat } from './device-history.js';
import type { DeviceHistory, DeviceValue } from './device-wire.js';
import type { TemplateOutline } from './template-outline.js';

const OUTLINE: TemplateOutline = {
  widgets: [],
  sets: [
    {
      id: 'state',
      alias: 'State',
      table: false,
      datapoints: [
        { id: 'temp', alias: 'Temperature', dataType: 'DOUBLE', calculated: false, unit: '°C' },
        { id: 'on', alias: 'Running', dataType: 'BOOLEAN', calculated: false },
        { id: 'name', alias: 'Name', dataType: 'STRING', calculated: false },
        { id: 'ratio', alias: 'Ratio', calculated: true },
        { id: 'label', alias: 'Label', calculated: true },
      ],
    },
    {
      id: 'ifs',
      alias: 'Interfaces',
      table: true,
      datapoints: [{ id: 'inOctets', alias: 'In', dataType: 'LONG', calculated: false }],
    },
  ],
};

function value(datapointSetId: string, datapointId: string, v: unknown, row: string | null = null): DeviceValue {
  return { datapointSetId, datapointId, row, value: v, rawValue: v, quality: 'good', timestamp: 1_764_752_400_000 };
}

const BASE = {
  deviceId: 'd',
  set: 'state',
  datapoint: 'temp',
  row: null,
  from: '2026-12-03T08:00:00.000Z',
  to: '2026-12-03T09:00:00.000Z',
} as const;

describe('trendChoices', () => {
  it('offers numeric and boolean datapoints, calculated ones by their value, table sets per row', () => {
    const values = [
      value('state', 'ratio', 0.5),
      value('state', 'label', 'x'),
      value('ifs', 'inOctets', 7, '2'),
      value('ifs', 'inOctets', 9, '1'),
    ];
    expect(trendChoices(OUTLINE, values).map((c) => [c.key, c.label, c.onOff, c.unit])).toEqual([
      ['state/temp/', 'State: Temperature', false, '°C'],
      ['state/on/', 'State: Running', true, undefined],
      ['state/ratio/', 'State: Ratio', false, undefined],
      ['ifs/inOctets/1', 'Interfaces: In row 1', false, undefined],
      ['ifs/inOctets/2', 'Interfaces: In row 2', false, undefined],
    ]);
  });
});

describe('historySeries and describeHistory', () => {
  const format = trendValueFormat({ onOff: false, unit: '°C' });
  it('draws raw numbers and leaves text and bad values out', () => {
    const history: DeviceHistory = {
      ...BASE,
      resolution: 'raw',
      step: 0,
      buckets: [],
      points: [
        { at: 1000, value: 20, text: null },
        { at: 2000, value: null, text: null },
        { at: 3000, value: 24.5, text: null },
      ],
    };
    expect(historySeries(history, 'T')).toEqual({
      label: 'T',
      points: [
        [1000, 20],
        [3000, 24.5],
      ],
    });
    expect(describeHistory(history, format)).toBe('latest 24.5 °C, min 20 °C, max 24.5 °C, average 22.3 °C (2 values)');
  });
  it('draws buckets as their average with a min-max band, the average weighted by count', () => {
    const history: DeviceHistory = {
      ...BASE,
      resolution: 'minute',
      step: 300_000,
      points: [],
      buckets: [
        { at: 0, min: 10, max: 30, avg: 20, count: 3 },
        { at: 300_000, min: 5, max: 15, avg: 10, count: 1 },
      ],
    };
    expect(historySeries(history, 'T')).toEqual({
      label: 'T',
      points: [
        [0, 20],
        [300_000, 10],
      ],
      band: {
        min: [
          [0, 10],
          [300_000, 5],
        ],
        max: [
          [0, 30],
          [300_000, 15],
        ],
      },
    });
    expect(describeHistory(history, format)).toBe(
      'min 5 °C, max 30 °C, average 17.5 °C; last 5 min average 10 °C (4 values in 2 buckets of 5 min; ' +
        "the band shows each bucket's min to max)",
    );
  });
  it('says nothing for an answer without numbers', () => {
    expect(describeHistory({ ...BASE, resolution: 'raw', step: 0, buckets: [], points: [] }, format)).toBeUndefined();
  });
});

describe('trendValueFormat and stepText', () => {
  it('shows fewer decimals as a number grows', () => {
    const ms = trendValueFormat({ onOff: false, unit: 'ms' });
    expect([ms(1963.979), ms(24.56), ms(3.14159), ms(0.01549), ms(0)]).toEqual([
      '1,964 ms',
      '24.6 ms',
      '3.14 ms',
      '0.015 ms',
      '0 ms',
    ]);
    expect(trendValueFormat({ onOff: false })(12)).toBe('12');
  });
  it('says on/off values as yes and no, a mixed average as a share', () => {
    const onOff = trendValueFormat({ onOff: true });
    expect([onOff(1), onOff(0), onOff(0.25)]).toEqual(['yes', 'no', '25 % yes']);
  });
  it('names a bucket length in its largest whole unit', () => {
    expect([stepText(30_000), stepText(300_000), stepText(3_600_000), stepText(86_400_000), stepText(1500)]).toEqual([
      '30 s',
      '5 min',
      '1 h',
      '1 d',
      '1,500 ms',
    ]);
  });
});
