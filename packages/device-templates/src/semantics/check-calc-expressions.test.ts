import { describe, expect, it } from 'vitest';
import { loadDocument } from '../loading/load-document.js';
import { checkSemantics } from './check-semantics.js';
import { semanticWarnings, validTemplate, withCode, type Fixture } from './test-support/semantic-fixtures.js';
import { listAt, objectAt } from '../test-support/fixture-paths.js';

/** Adds calculated datapoints `[id, expression]` to the first set. */
function withCalcs(...calcs: [string, string][]): Fixture {
  const t = validTemplate();
  for (const [id, expression] of calcs) {
    listAt(t, 'datapointSets', 0, 'datapoints').push({
      commonConfig: { datapointId: id, datapointType: 'DATAPOINT' },
      calcConfig: { expression },
    });
  }
  return t;
}

const calcPath = (index: number) => `/datapointSets/0/datapoints/${index}/calcConfig/expression`;

describe('checkCalcExpressions: raw values', () => {
  it.each(['datapoint.rawValue * 2', "datapoint['rawValue'] + 1", 'datapoint.rawValue ?? 0'])(
    'warns on a calcConfig reading the raw value: %s',
    (expression) => {
      const t = validTemplate();
      objectAt(t, 'datapointSets', 0, 'datapoints', 3, 'calcConfig').expression = expression;
      const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_CALC_RAW_VALUE');
      expect(problem).toMatchObject({ severity: 'warning', path: calcPath(3), found: expression });
      expect(problem!.message).toContain('has no raw value');
    },
  );

  it('accepts a calcConfig reading values (its own or other datapoints), a convConfig reading the raw value', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 0, 'datapoints', 0).convConfig = { expression: 'datapoint.rawValue / 10' };
    objectAt(t, 'datapointSets', 0, 'datapoints', 3, 'calcConfig').expression =
      "datapoint.value + datapoints.temperature.rawValue + 'rawValue'.length";
    expect(withCode(semanticWarnings(t), 'DT_WARN_SEM_CALC_RAW_VALUE')).toEqual([]);
  });

  it('points the warning at the raw value read inside the expression', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 0, 'datapoints', 3, 'calcConfig').expression = 'Math.abs(datapoint.rawValue)';
    const text = JSON.stringify(t, null, 2);
    const [problem] = withCode(checkSemantics(loadDocument(text, { format: 'json' })), 'DT_WARN_SEM_CALC_RAW_VALUE');
    const offset = text.indexOf('datapoint.rawValue');
    const before = text.slice(0, offset);
    expect(problem).toMatchObject({ line: before.split('\n').length, column: offset - before.lastIndexOf('\n') });
  });
});

describe('checkCalcExpressions: cycles', () => {
  it('reports calculated datapoints that read each other as one error on the first of them', () => {
    const t = withCalcs(
      ['a', 'datapoints.b.value + 1'],
      ['b', "datapoints['c'].value * 2"],
      ['c', 'datapoints.a.value - datapoints.temperature.value'],
    );
    const problems = withCode(semanticWarnings(t), 'DT_ERR_SEM_CALC_CYCLE');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ severity: 'error', path: calcPath(5), found: 'a -> b -> c' });
    expect(problems[0]!.message).toContain('"a" -> "b" -> "c" -> "a" of set "deviceInfo" read each other in a cycle');
  });

  it('reports a calculated datapoint that reads itself', () => {
    const t = withCalcs(['self', 'datapoints.self.value + 1']);
    const [problem] = withCode(semanticWarnings(t), 'DT_ERR_SEM_CALC_CYCLE');
    expect(problem).toMatchObject({ path: calcPath(5), found: 'self' });
    expect(problem!.message).toContain('its own value');
  });

  it('reports each separate cycle once, and not the datapoints that only read a cycle', () => {
    const t = withCalcs(
      ['reader', 'datapoints.x.value'],
      ['x', 'datapoints.y.value'],
      ['y', 'datapoints.x.value'],
      ['p', 'datapoints.q.value'],
      ['q', 'datapoints.p.value + datapoints.x.value'],
    );
    expect(withCode(semanticWarnings(t), 'DT_ERR_SEM_CALC_CYCLE').map((p) => [p.path, p.found])).toEqual([
      [calcPath(6), 'x -> y'],
      [calcPath(8), 'p -> q'],
    ]);
  });

  it('accepts chains of calculations in any document order', () => {
    const t = withCalcs(
      ['last', 'datapoints.middle.value + datapoints.first.value'],
      ['middle', 'datapoints.first.value * 2'],
      ['first', 'datapoints.temperature.value'],
    );
    expect(withCode(semanticWarnings(t), 'DT_ERR_SEM_CALC_CYCLE')).toEqual([]);
  });

  it('points the cycle error at the reference to the next datapoint of the cycle', () => {
    const t = withCalcs(['a', 'datapoints.temperature.value + datapoints.b.value'], ['b', 'datapoints.a.value']);
    const text = JSON.stringify(t, null, 2);
    const [problem] = withCode(checkSemantics(loadDocument(text, { format: 'json' })), 'DT_ERR_SEM_CALC_CYCLE');
    const offset = text.indexOf('datapoints.b.value');
    const before = text.slice(0, offset);
    expect(problem).toMatchObject({ line: before.split('\n').length, column: offset - before.lastIndexOf('\n') });
  });
});
