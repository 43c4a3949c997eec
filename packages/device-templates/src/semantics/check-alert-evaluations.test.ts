import { describe, expect, it } from 'vitest';
import { semanticWarnings, validTemplate, withCode } from './test-support/semantic-fixtures.js';
import { listAt, objectAt } from '../test-support/fixture-paths.js';

const evaluationPath = '/datapointSets/0/datapoints/2/alertConfig/evaluations/0';
const evaluation = (t: ReturnType<typeof validTemplate>) =>
  objectAt(t, 'datapointSets', 0, 'datapoints', 2, 'alertConfig', 'evaluations', 0);

describe('checkAlertEvaluations', () => {
  it('warns on an evaluation with an empty expressions list and names its severity band', () => {
    const t = validTemplate();
    evaluation(t).expressions = [];
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_QUIRK_EVALUATION_NO_EXPRESSIONS');
    expect(problem!.path).toBe(`${evaluationPath}/expressions`);
    expect(problem!.message).toContain('The evaluation with severity 601 (error) has no expressions');
  });

  it('warns on a symbol declared twice in one evaluation and names the first declaration', () => {
    const t = validTemplate();
    objectAt(evaluation(t), 'expressions', 1).symbol = 'hot';
    evaluation(t).logic = 'hot';
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_SYMBOL_DUPLICATE');
    expect(problem!.path).toBe(`${evaluationPath}/expressions/1/symbol`);
    expect(problem!.message).toContain(`already declared at ${evaluationPath}/expressions/0/symbol`);
  });

  it('warns on a symbol declared twice in rowFilterConfig', () => {
    const t = validTemplate();
    listAt(t, 'datapointSets', 1, 'datapoints', 1, 'rowFilterConfig', 'expressions').push({
      symbol: 'up',
      expression: 'datapoint.value > 0',
    });
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_SYMBOL_DUPLICATE');
    expect(problem).toMatchObject({
      path: '/datapointSets/1/datapoints/1/rowFilterConfig/expressions/1/symbol',
      found: 'up',
    });
    expect(problem!.message).toContain('of the row filter');
  });
});
