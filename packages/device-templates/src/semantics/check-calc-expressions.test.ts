import { describe, expect, it } from 'vitest';
import { semanticWarnings, validTemplate, withCode } from './test-support.js';

describe('checkCalcExpressions', () => {
  it.each(['datapoint.rawValue * 2', "datapoint['rawValue'] + 1", 'datapoint?.rawValue ?? 0'])('warns on a calcConfig reading the raw value: %s', (expression) => {
    const t = validTemplate();
    t.datapointSets[0].datapoints[3].calcConfig.expression = expression;
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_CALC_RAW_VALUE');
    expect(problem).toMatchObject({ path: '/datapointSets/0/datapoints/3/calcConfig/expression', found: expression });
    expect(problem!.message).toContain('has no raw value');
  });

  it('accepts a calcConfig reading the value, and a convConfig reading the raw value', () => {
    const t = validTemplate();
    t.datapointSets[0].datapoints[0].convConfig = { expression: 'datapoint.rawValue / 10' };
    t.datapointSets[0].datapoints[3].calcConfig.expression = 'datapoint.value + datapoint.rawValueOffset';
    expect(withCode(semanticWarnings(t), 'DT_WARN_SEM_CALC_RAW_VALUE')).toEqual([]);
  });
});
