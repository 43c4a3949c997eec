import { describe, expect, it } from 'vitest';
import { createTemplateEvaluator } from './template-evaluator.js';
import { eventSummary, evaluation, read, set, steppingClock, template } from './test-support/template-builders.js';
import type { Evaluation } from '../generated/device-template.generated.js';
import type { PipelineInput } from './pipeline-types.js';

function evaluator(...evaluations: Evaluation[]) {
  return createTemplateEvaluator(
    template(set('system', [read('loss', { alertConfig: { evaluations } }), read('threshold')])),
    { now: steppingClock() },
  );
}
const loss = (rawValue: unknown) => ({ datapointSetId: 'system', datapointId: 'loss', rawValue });
const run = (e: ReturnType<typeof evaluator>, ...values: unknown[]) =>
  values.map((v) => eventSummary(e.update(loss(v))));

describe('alarm evaluations', () => {
  it('raises on a transition to true and clears on the transition back, once each', () => {
    const e = evaluator(evaluation(401, 'datapoint.value > 10'));
    expect(run(e, 1, 20, 30, 5, 3, 50)).toEqual([
      [],
      ['alarm-raised 401 loss'],
      [],
      ['alarm-cleared 401 loss'],
      [],
      ['alarm-raised 401 loss'],
    ]);
  });

  it('carries the fields of the evaluation and the value in the event', () => {
    const routing = { topic: 'alarms/network', service: 'hub' };
    const e = evaluator(
      evaluation(701, 'datapoint.value > 10', {
        text: 'Loss is high',
        textHelp: 'Check the cable',
        facility: 12,
        hidden: true,
        audited: true,
        broadcast: true,
        routing,
      }),
    );
    const [raised] = e.update({ ...loss(20), origin: 'sw-1', timestamp: 5000 }).events;
    expect(raised).toEqual({
      type: 'alarm-raised',
      origin: 'sw-1',
      datapointSetId: 'system',
      datapointId: 'loss',
      severity: 701,
      level: 'error',
      text: 'Loss is high',
      textHelp: 'Check the cable',
      facility: 12,
      hidden: true,
      audited: true,
      broadcast: true,
      routing,
      timestamp: 5000,
      value: 20,
    });
    expect(e.update({ ...loss(0), origin: 'sw-1' }).events[0]).toMatchObject({
      type: 'alarm-cleared',
      severity: 701,
      text: 'Loss is high',
      value: 0,
    });
  });

  it('tracks each severity of a datapoint on its own', () => {
    const e = evaluator(evaluation(401, 'datapoint.value > 10'), evaluation(801, 'datapoint.value > 100'));
    expect(run(e, 50, 500, 50, 0)).toEqual([
      ['alarm-raised 401 loss'],
      ['alarm-raised 801 loss'],
      ['alarm-cleared 801 loss'],
      ['alarm-cleared 401 loss'],
    ]);
  });

  it('names the severity bands', () => {
    const levels = [250, 450, 650, 850].map(
      (severity) => evaluator(evaluation(severity, 'datapoint.value > 0')).update(loss(1)).events[0],
    );
    expect(levels.map((event) => (event as { level: string }).level)).toEqual(['info', 'warning', 'error', 'critical']);
  });

  it('combines several expressions with logic over their symbols', () => {
    const both = evaluation(401, '', {
      expressions: [
        { symbol: 'high', expression: 'datapoint.value > 10' },
        { symbol: 'known', expression: 'datapoints.threshold.value !== null' },
      ],
      logic: 'high & known',
    });
    const e = evaluator(both);
    expect(run(e, 20)).toEqual([[]]);
    e.update({ datapointSetId: 'system', datapointId: 'threshold', rawValue: 10 });
    expect(run(e, 21, 2)).toEqual([['alarm-raised 401 loss'], ['alarm-cleared 401 loss']]);
  });

  it('accepts any symbol name, __proto__ included', () => {
    const odd = evaluation(401, '', {
      expressions: [
        { symbol: '__proto__', expression: 'datapoint.value > 10' },
        { symbol: 'constructor', expression: 'datapoint.value < 100' },
      ],
      logic: '__proto__ && constructor',
    });
    expect(run(evaluator(odd), 50, 500)).toEqual([['alarm-raised 401 loss'], ['alarm-cleared 401 loss']]);
  });
});

describe('onStartup', () => {
  it('raises a condition already true at the first evaluation when onStartup is true', () => {
    expect(run(evaluator(evaluation(401, 'datapoint.value > 10', { onStartup: true })), 20)).toEqual([
      ['alarm-raised 401 loss'],
    ]);
  });

  it('stays silent for a condition already true at start-up when onStartup is false, and has nothing to clear', () => {
    const e = evaluator(evaluation(401, 'datapoint.value > 10', { onStartup: false }));
    expect(run(e, 20, 30, 1)).toEqual([[], [], []]);
    expect(e.snapshot()[0]!.rows[0]!.activeAlarms).toEqual([]);
    // A later transition to true is not a start-up: it raises.
    expect(run(e, 40)).toEqual([['alarm-raised 401 loss']]);
  });

  it('raises with onStartup false when the first evaluation is false and a later one true', () => {
    expect(run(evaluator(evaluation(401, 'datapoint.value > 10', { onStartup: false })), 1, 20)).toEqual([
      [],
      ['alarm-raised 401 loss'],
    ]);
  });
});

describe('log evaluations', () => {
  it('emit a log event on each transition to true and nothing when the condition goes away', () => {
    const e = evaluator(evaluation(50, 'datapoint.value > 10'), evaluation(150, 'datapoint.value > 100'));
    expect(run(e, 20, 30, 500, 1, 20)).toEqual([['log 50 loss'], [], ['log 150 loss'], [], ['log 50 loss']]);
  });

  it('carry the notification level and never show as active alarms', () => {
    const e = evaluator(evaluation(1, 'datapoint.value > 10'));
    expect(e.update(loss(20)).events[0]).toMatchObject({ type: 'log', level: 'notification', severity: 1 });
    expect(e.snapshot()[0]!.rows[0]!.activeAlarms).toEqual([]);
  });

  it('follow onStartup like alarms', () => {
    expect(run(evaluator(evaluation(50, 'datapoint.value > 10', { onStartup: false })), 20)).toEqual([[]]);
  });
});

describe('evaluation errors in alerts', () => {
  it('report the failing evaluation and keep its state, while the other evaluations go on', () => {
    const e = evaluator(evaluation(401, "datapoint.value.startsWith('err')"), evaluation(601, 'datapoint.value === 7'));
    expect(run(e, 'error 1')).toEqual([['alarm-raised 401 loss']]);
    const out = e.update(loss(7));
    expect(eventSummary(out)).toEqual([
      'evaluation-error alert DT_ERR_EVAL_METHOD_RECEIVER loss',
      'alarm-raised 601 loss',
    ]);
    expect(out.events[0]).toMatchObject({ severity: 401, expression: "datapoint.value.startsWith('err')" });
    // The 401 alarm neither cleared nor raised again.
    expect(e.snapshot()[0]!.rows[0]!.activeAlarms).toEqual([
      { datapointId: 'loss', severity: 401 },
      { datapointId: 'loss', severity: 601 },
    ]);
    expect(run(e, 'fine')).toEqual([['alarm-cleared 401 loss', 'alarm-cleared 601 loss']]);
  });

  it('report an expression that yields something other than a boolean', () => {
    const e = evaluator(evaluation(401, 'datapoint.value && datapoint.value > 3'));
    expect(eventSummary(e.update(loss(0)))).toEqual(['evaluation-error alert DT_ERR_EVAL_NOT_BOOLEAN loss']);
  });
});

describe('non-finite readings', () => {
  it('rejects rawValue 1e400 (Infinity once parsed) with update-rejected instead of an alarm with value null', () => {
    const e = evaluator(evaluation(401, 'datapoint.value > 10'));
    const update = JSON.parse('{"datapointSetId":"system","datapointId":"loss","rawValue":1e400}') as PipelineInput;
    const output = e.update(update);
    expect(eventSummary(output)).toEqual(['update-rejected DT_ERR_PIPE_UPDATE_NOT_FINITE']);
    expect(output.events[0]).toMatchObject({ datapointSetId: 'system', datapointId: 'loss' });
    expect((output.events[0] as { message: string }).message).toContain('rawValue is Infinity');
    expect(output.values).toEqual([]);
  });

  it('rejects NaN and infinite numbers nested in value, and keeps the last good reading', () => {
    const e = evaluator(evaluation(401, 'datapoint.value > 10'));
    expect(eventSummary(e.update(loss(20)))).toEqual(['alarm-raised 401 loss']);
    const nested = { datapointSetId: 'system', datapointId: 'loss', value: { samples: [1, Number.NaN] } };
    expect(eventSummary(e.update(nested))).toEqual(['update-rejected DT_ERR_PIPE_UPDATE_NOT_FINITE']);
    expect(eventSummary(e.update(loss(-Infinity)))).toEqual(['update-rejected DT_ERR_PIPE_UPDATE_NOT_FINITE']);
    expect(eventSummary(e.update(loss(5)))).toEqual(['alarm-cleared 401 loss']);
  });
});
