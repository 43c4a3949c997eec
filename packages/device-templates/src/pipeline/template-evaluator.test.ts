import { describe, expect, it } from 'vitest';
import { createTemplateEvaluator } from './template-evaluator.js';
import {
  calc,
  eventSummary,
  evaluation,
  read,
  set,
  steppingClock,
  template,
  valueSummary,
} from './test-support/template-builders.js';
import type { DatapointUpdate, PipelineEvent, PipelineInput } from './pipeline-types.js';

const system = (datapoints: Parameters<typeof set>[1]) =>
  createTemplateEvaluator(template(set('system', datapoints)), { now: steppingClock() });
const update = (datapointId: string, fields: Partial<DatapointUpdate> = {}): DatapointUpdate => ({
  datapointSetId: 'system',
  datapointId,
  ...fields,
});

describe('default substitution (stage 1)', () => {
  const evaluator = () =>
    system([
      read('mode', {
        defaultValueConfig: { isDefault: true, rawValue: 0, value: 'unknown' },
        valueMapConfig: { map: [{ key: 0, value: 'off' }] },
      }),
    ]);

  it('substitutes a null raw value, and the value map sees the substitute', () => {
    const out = evaluator().update(update('mode', { rawValue: null }));
    expect(out.values).toEqual([expect.objectContaining({ value: 'off', rawValue: 0, defaulted: true })]);
  });

  it('uses the default value when neither value nor raw value can give one', () => {
    const out = system([read('label', { defaultValueConfig: { isDefault: true, value: 'n/a' } })]).update(
      update('label', {}),
    );
    expect(out.values[0]).toMatchObject({ value: 'n/a', rawValue: null, defaulted: true });
  });

  it('leaves a real reading alone and marks nothing as defaulted', () => {
    const out = evaluator().update(update('mode', { rawValue: 7 }));
    expect(out.values[0]).toMatchObject({ value: 7, rawValue: 7 });
    expect(out.values[0]).not.toHaveProperty('defaulted');
  });

  it('treats an absent field like null', () => {
    const out = system([read('x', { defaultValueConfig: { isDefault: true, rawValue: 5 } })]).update(
      update('x', { quality: 'bad' }),
    );
    expect(out.values[0]).toMatchObject({ value: 5, rawValue: 5, quality: 'bad', defaulted: true });
  });
});

describe('value map (stage 2)', () => {
  const evaluator = () =>
    system([
      read('oper', {
        valueMapConfig: {
          map: [
            { key: 1, value: 'up' },
            { key: 2, value: 'down' },
          ],
        },
      }),
    ]);

  it('maps the raw value to the value, matching numbers written as text', () => {
    const e = evaluator();
    expect(valueSummary(e.update(update('oper', { rawValue: 1 })))).toEqual(['oper="up"']);
    expect(valueSummary(e.update(update('oper', { rawValue: '2' })))).toEqual(['oper="down"']);
  });

  it('keeps the raw value as the value on a miss', () => {
    expect(evaluator().update(update('oper', { rawValue: 7 })).values[0]).toMatchObject({ value: 7, rawValue: 7 });
  });

  it('does not override a value the driver sent', () => {
    expect(evaluator().update(update('oper', { rawValue: 1, value: 'UP (driver)' })).values[0]!.value).toBe(
      'UP (driver)',
    );
  });
});

describe('conversion expression (stage 3)', () => {
  it('replaces the value with the expression result, reading value, rawValue and other datapoints', () => {
    const e = system([
      read('scale'),
      read('level', { convConfig: { expression: 'datapoint.rawValue * datapoints.scale.value + 1' } }),
    ]);
    e.update(update('scale', { rawValue: 10 }));
    expect(e.update(update('level', { rawValue: 4 })).values[0]).toMatchObject({ value: 41, rawValue: 4 });
  });

  it('emits an evaluation error and keeps the previous value when the expression fails', () => {
    const e = system([read('name', { convConfig: { expression: 'datapoint.value.toUpperCase()' } }), read('other')]);
    expect(e.update(update('name', { rawValue: 'eth0' })).values[0]!.value).toBe('ETH0');
    const out = e.update(update('name', { rawValue: 42 }));
    expect(out.values).toEqual([]);
    expect(out.events).toEqual([
      expect.objectContaining({
        type: 'evaluation-error',
        stage: 'conversion',
        code: 'DT_ERR_EVAL_METHOD_RECEIVER',
        datapointSetId: 'system',
        datapointId: 'name',
        expression: 'datapoint.value.toUpperCase()',
      }),
    ]);
    expect((out.events[0] as { message: string }).message).toMatch(/string/);
    expect(e.snapshot()[0]!.rows[0]!.values['name']!.value).toBe('ETH0');
    // The pipeline goes on.
    expect(valueSummary(e.update(update('other', { rawValue: 1 })))).toEqual(['other=1']);
  });
});

describe('conversion results JSON cannot carry', () => {
  it('are evaluation errors, not NaN values', () => {
    const e = system([
      read('rate', { convConfig: { expression: 'datapoint.rawValue / 100' } }),
      read('a'),
      calc('ratio', 'datapoints.a.value / 0'),
    ]);
    const out = e.update(update('rate', { rawValue: 'soon' }));
    expect(out.values).toEqual([]);
    expect(out.events).toEqual([
      expect.objectContaining({ stage: 'conversion', code: 'DT_ERR_PIPE_RESULT_NOT_FINITE' }),
    ]);
    expect((out.events[0] as { message: string }).message).toContain('NaN from value "soon"');
    expect(eventSummary(e.update(update('a', { rawValue: 1 })))).toEqual([
      'evaluation-error calculation DT_ERR_PIPE_RESULT_NOT_FINITE ratio',
    ]);
  });
});

describe('units (stage 4)', () => {
  it('converts after the conversion expression and attaches the unit when asked', () => {
    const e = system([
      read('rx', {
        convConfig: { expression: 'datapoint.value * 8' },
        unitsConfig: { from: 'b', to: 'Kb', units: true },
      }),
    ]);
    expect(e.update(update('rx', { rawValue: 256 })).values[0]).toMatchObject({ value: 2, unit: 'Kb', rawValue: 256 });
  });

  it('chooses the unit with toBest', () => {
    const e = system([read('disk', { unitsConfig: { from: 'B', toBest: true, exclude: ['KB'] } })]);
    expect(valueSummary(e.update(update('disk', { rawValue: 5 * 1024 * 1024 })))).toEqual(['disk=5 MB']);
    expect(valueSummary(e.update(update('disk', { rawValue: 1000 })))).toEqual(['disk=1000 B']);
  });

  it('lets null through and reports a value that is not a number', () => {
    const e = system([read('t', { unitsConfig: { from: 'C', to: 'F' } })]);
    expect(e.update(update('t', { rawValue: null })).values[0]).toMatchObject({ value: null });
    expect(eventSummary(e.update(update('t', { rawValue: '21' })))).toEqual([
      'evaluation-error units DT_ERR_PIPE_UNITS_NOT_NUMBER t',
    ]);
  });
});

describe('stage composition', () => {
  it('runs default, value map, conversion, units, then alerts on the final value', () => {
    const e = system([
      read('load', {
        defaultValueConfig: { isDefault: true, rawValue: 'idle' },
        valueMapConfig: { map: [{ key: 'idle', value: '0' }] },
        convConfig: { expression: 'Number(datapoint.value) * 1000' },
        unitsConfig: { from: 'W', to: 'kW', units: true },
        alertConfig: { evaluations: [evaluation(601, 'datapoint.value >= 2')] },
      }),
    ]);
    const idle = e.update(update('load', { rawValue: null }));
    expect(idle.values[0]).toMatchObject({ value: 0, unit: 'kW', rawValue: 'idle', defaulted: true });
    expect(idle.events).toEqual([]);
    const busy = e.update(update('load', { rawValue: '2.5' }));
    expect(busy.values[0]).toMatchObject({ value: 2500 / 1000, unit: 'kW' });
    expect(busy.events).toEqual([expect.objectContaining({ type: 'alarm-raised', severity: 601, value: 2.5 })]);
  });
});

describe('inputs', () => {
  it('fills origin, quality and timestamp from the options, the template and the clock', () => {
    const e = createTemplateEvaluator(template(set('system', [read('a')])), { now: () => 1234 });
    expect(e.update(update('a', { rawValue: 1 })).values[0]).toEqual({
      origin: 'device-1',
      datapointSetId: 'system',
      datapointId: 'a',
      value: 1,
      rawValue: 1,
      quality: 'good',
      timestamp: 1234,
    });
    const other = createTemplateEvaluator(template(set('system', [read('a')])), { origin: '10.0.0.1' });
    expect(other.update(update('a', { rawValue: 1, timestamp: 99, quality: 'uncertain' })).values[0]).toMatchObject({
      origin: '10.0.0.1',
      timestamp: 99,
      quality: 'uncertain',
    });
  });

  it('keeps the state of each origin apart', () => {
    const e = system([read('a', { alertConfig: { evaluations: [evaluation(401, 'datapoint.value > 5')] } })]);
    expect(eventSummary(e.update(update('a', { origin: 'one', rawValue: 9 })))).toEqual(['alarm-raised 401 a']);
    expect(eventSummary(e.update(update('a', { origin: 'two', rawValue: 9 })))).toEqual(['alarm-raised 401 a']);
    expect(e.update(update('a', { origin: 'one', rawValue: 1 })).events[0]).toMatchObject({
      type: 'alarm-cleared',
      origin: 'one',
    });
  });

  it.each<[string, unknown, string]>([
    ['an unknown set', { datapointSetId: 'nope', datapointId: 'a' }, 'DT_ERR_PIPE_UPDATE_SET_UNKNOWN'],
    ['an unknown datapoint', { datapointSetId: 'system', datapointId: 'nope' }, 'DT_ERR_PIPE_UPDATE_DATAPOINT_UNKNOWN'],
    [
      'a calculated datapoint',
      { datapointSetId: 'system', datapointId: 'sum', rawValue: 1 },
      'DT_ERR_PIPE_UPDATE_CALCULATED',
    ],
    ['a non-object', 42, 'DT_ERR_PIPE_UPDATE_MALFORMED'],
    ['a missing datapointId', { datapointSetId: 'system' }, 'DT_ERR_PIPE_UPDATE_MALFORMED'],
    [
      'a text timestamp',
      { datapointSetId: 'system', datapointId: 'a', timestamp: 'now' },
      'DT_ERR_PIPE_UPDATE_MALFORMED',
    ],
    ['a numeric quality', { datapointSetId: 'system', datapointId: 'a', quality: 1 }, 'DT_ERR_PIPE_UPDATE_MALFORMED'],
    [
      'a row removal in a map set',
      { datapointSetId: 'system', tableIndex: 1, removed: true },
      'DT_ERR_PIPE_UPDATE_NOT_TABLE',
    ],
  ])('rejects %s with an update-rejected event instead of throwing', (_, input, code) => {
    const e = system([read('a'), calc('sum', 'datapoints.a.value + 1')]);
    const out = e.update(input as PipelineInput);
    expect(out.values).toEqual([]);
    expect(out.events).toEqual([expect.objectContaining({ type: 'update-rejected', code })]);
    expect(valueSummary(e.update(update('a', { rawValue: 1 })))).toEqual(['a=1', 'sum=2']);
  });
});

describe('feed, updateBatch, snapshot and reset', () => {
  const evaluator = () =>
    system([read('a', { alertConfig: { evaluations: [evaluation(801, 'datapoint.value > 5')] } }), read('b')]);

  it('gives the sink the same values and events as update', () => {
    const inputs = [update('a', { rawValue: 9 }), update('b', { rawValue: 2 }), update('a', { rawValue: 1 })];
    const collected: { values: unknown[]; events: PipelineEvent[] } = { values: [], events: [] };
    const fed = evaluator();
    for (const input of inputs)
      fed.feed(input, { value: (v) => collected.values.push(v), event: (e) => collected.events.push(e) });
    const batch = evaluator().updateBatch(inputs);
    expect(collected).toEqual(batch);
    expect(valueSummary(batch)).toEqual(['a=9', 'b=2', 'a=1']);
    expect(eventSummary(batch)).toEqual(['alarm-raised 801 a', 'alarm-cleared 801 a']);
  });

  it('snapshots current values and raised alarms, and reset forgets them without events', () => {
    const e = evaluator();
    e.updateBatch([update('a', { rawValue: 9 }), update('b', { rawValue: 2 })]);
    expect(e.snapshot()).toEqual([
      {
        datapointSetId: 'system',
        datapointSetType: 'map',
        rows: [
          {
            origin: 'device-1',
            visible: true,
            values: {
              a: { value: 9, rawValue: 9, quality: 'good', timestamp: 1000 },
              b: { value: 2, rawValue: 2, quality: 'good', timestamp: 2000 },
            },
            activeAlarms: [{ datapointId: 'a', severity: 801 }],
          },
        ],
      },
    ]);
    e.reset();
    expect(e.snapshot()[0]!.rows).toEqual([]);
    // After a reset the next evaluation is a start-up again.
    expect(eventSummary(e.update(update('a', { rawValue: 9 })))).toEqual(['alarm-raised 801 a']);
  });
});
