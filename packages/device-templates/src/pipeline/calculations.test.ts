import { describe, expect, it } from 'vitest';
import { createTemplateEvaluator } from './template-evaluator.js';
import { calc, eventSummary, evaluation, read, set, template, valueSummary } from './test-support/template-builders.js';
import type { Datapoint } from '../generated/device-template.generated.js';

const evaluator = (...datapoints: Datapoint[]) =>
  createTemplateEvaluator(template(set('system', datapoints)), { now: () => 1 });
const update = (datapointId: string, rawValue: unknown) => ({ datapointSetId: 'system', datapointId, rawValue });

describe('calculated datapoints', () => {
  it('are computed in dependency order whatever the document order', () => {
    // percent reads total, total reads in and out; percent is written first.
    const e = evaluator(
      calc('percent', 'datapoints.total.value / datapoints.capacity.value * 100'),
      calc('total', 'datapoints.in.value + datapoints.out.value'),
      read('in'),
      read('out'),
      read('capacity'),
    );
    e.update(update('capacity', 200));
    e.update(update('in', 30));
    expect(valueSummary(e.update(update('out', 20)))).toEqual(['out=20', 'total=50', 'percent=25']);
    expect(valueSummary(e.update(update('capacity', 100)))).toEqual(['capacity=100', 'percent=50']);
  });

  it('wait until every datapoint they read has a value', () => {
    const e = evaluator(read('a'), read('b'), calc('sum', 'datapoints.a.value + datapoints.b.value'));
    expect(valueSummary(e.update(update('a', 1)))).toEqual(['a=1']);
    expect(valueSummary(e.update(update('b', 2)))).toEqual(['b=2', 'sum=3']);
  });

  it('are re-evaluated only when an input they read changed', () => {
    const e = evaluator(read('a'), read('b'), calc('double', 'datapoints.a.value * 2'));
    e.update(update('a', 1));
    expect(valueSummary(e.update(update('b', 5)))).toEqual(['b=5']);
    expect(valueSummary(e.update(update('a', 4)))).toEqual(['a=4', 'double=8']);
  });

  it('see the final value of their inputs, after conversion and units', () => {
    const e = evaluator(
      read('bytes', { unitsConfig: { from: 'B', to: 'KB' } }),
      calc('kilobits', 'datapoints.bytes.value * 8'),
    );
    expect(valueSummary(e.update(update('bytes', 2048)))).toEqual(['bytes=2', 'kilobits=16']);
  });

  it('run their own stages and alerts on the result', () => {
    const e = evaluator(
      read('used'),
      read('size'),
      calc('free', 'datapoints.size.value - datapoints.used.value', {
        unitsConfig: { from: 'MB', to: 'GB', units: true },
        alertConfig: { evaluations: [evaluation(601, 'datapoint.value < 1')] },
      }),
    );
    e.update(update('size', 4096));
    const out = e.update(update('used', 3584));
    expect(valueSummary(out)).toEqual(['used=3584', 'free=0.5 GB']);
    expect(eventSummary(out)).toEqual(['alarm-raised 601 free']);
  });

  it('are computed before the alerts, which see the fresh results', () => {
    const e = evaluator(
      read('a', { alertConfig: { evaluations: [evaluation(401, 'datapoints.double.value > 10')] } }),
      calc('double', 'datapoints.a.value * 2'),
    );
    const out = e.update(update('a', 6));
    expect(valueSummary(out)).toEqual(['a=6', 'double=12']);
    expect(eventSummary(out)).toEqual(['alarm-raised 401 a']);
  });

  it('fall back to their default when they yield null', () => {
    const e = evaluator(
      read('a'),
      calc('c', 'datapoints.a.value > 1 ? datapoints.a.value : null', {
        defaultValueConfig: { isDefault: true, value: 'none' },
      }),
    );
    expect(e.update(update('a', 0)).values[1]).toMatchObject({ datapointId: 'c', value: 'none', defaulted: true });
  });

  it('report a failing calculation and let the others go on', () => {
    const e = evaluator(
      read('name'),
      calc('upper', 'datapoints.name.value.toUpperCase()'),
      calc('length', 'String(datapoints.name.value).length'),
    );
    const out = e.update(update('name', 17));
    expect(eventSummary(out)).toEqual(['evaluation-error calculation DT_ERR_EVAL_METHOD_RECEIVER upper']);
    expect(valueSummary(out)).toEqual(['name=17', 'length=2']);
  });

  it('without inputs, and constant datapoints, take their value when the row appears', () => {
    const e = evaluator(
      read('a'),
      {
        commonConfig: { datapointId: 'vendor', datapointType: 'DATAPOINT' },
        defaultValueConfig: { isDefault: true, value: 'ACME' },
      },
      calc('label', "'model ' + datapoints.vendor.value"),
      calc('fixed', '42'),
    );
    expect(valueSummary(e.update(update('a', 1)))).toEqual(['vendor="ACME"', 'a=1', 'label="model ACME"', 'fixed=42']);
    expect(valueSummary(e.update(update('a', 2)))).toEqual(['a=2']);
  });
});
