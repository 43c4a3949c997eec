import { describe, expect, it } from 'vitest';
import { semanticWarnings, validTemplate, withCode } from './test-support.js';

const evaluationPath = '/datapointSets/0/datapoints/2/alertConfig/evaluations/0';
const evaluation = (t: ReturnType<typeof validTemplate>) => t.datapointSets[0].datapoints[2].alertConfig.evaluations[0];

describe('checkAlertEvaluations', () => {
  it('warns on an evaluation with an empty expressions list and names its severity band', () => {
    const t = validTemplate();
    evaluation(t).expressions = [];
    const problems = semanticWarnings(t);
    const [problem] = withCode(problems, 'DT_WARN_QUIRK_EVALUATION_NO_EXPRESSIONS');
    expect(problem!.path).toBe(`${evaluationPath}/expressions`);
    expect(problem!.message).toContain('The evaluation with severity 601 (error) has no expressions');
    // The empty list already explains the logic's unknown symbols.
    expect(withCode(problems, 'DT_WARN_SEM_LOGIC_SYMBOL_UNDECLARED')).toEqual([]);
  });

  it('warns on a logic symbol that no expression declares and suggests the close one', () => {
    const t = validTemplate();
    evaluation(t).logic = 'hot & veryHott';
    const problems = semanticWarnings(t);
    const [undeclared] = withCode(problems, 'DT_WARN_SEM_LOGIC_SYMBOL_UNDECLARED');
    expect(undeclared).toMatchObject({ path: `${evaluationPath}/logic`, found: 'veryHott', suggestion: 'veryHot' });
    expect(undeclared!.message).toContain("refers to 'veryHott', which no expression declares");
    const [unused] = withCode(problems, 'DT_WARN_SEM_LOGIC_SYMBOL_UNUSED');
    expect(unused).toMatchObject({ path: `${evaluationPath}/expressions/1/symbol`, found: 'veryHot' });
  });

  it('warns on a declared symbol that logic does not use', () => {
    const t = validTemplate();
    evaluation(t).logic = 'hot';
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_LOGIC_SYMBOL_UNUSED');
    expect(problem!.message).toContain("The symbol 'veryHot' of the evaluation with severity 601 (error) is not used");
  });

  it('accepts logic written with &&, ||, !, parentheses and keywords', () => {
    const t = validTemplate();
    evaluation(t).logic = '(hot && !veryHot) || (veryHot and true)';
    const problems = semanticWarnings(t);
    expect(withCode(problems, 'DT_WARN_SEM_LOGIC_SYMBOL_UNDECLARED')).toEqual([]);
    expect(withCode(problems, 'DT_WARN_SEM_LOGIC_SYMBOL_UNUSED')).toEqual([]);
  });

  it('warns on a symbol declared twice in one evaluation', () => {
    const t = validTemplate();
    evaluation(t).expressions[1].symbol = 'hot';
    evaluation(t).logic = 'hot';
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_SYMBOL_DUPLICATE');
    expect(problem!.path).toBe(`${evaluationPath}/expressions/1/symbol`);
    expect(problem!.message).toContain(`already declared at ${evaluationPath}/expressions/0/symbol`);
  });

  it('checks the symbols of rowFilterConfig too', () => {
    const t = validTemplate();
    t.datapointSets[1].datapoints[1].rowFilterConfig.logic = 'up | down';
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_LOGIC_SYMBOL_UNDECLARED');
    expect(problem).toMatchObject({ path: '/datapointSets/1/datapoints/1/rowFilterConfig/logic', found: 'down' });
    expect(problem!.message).toContain('of the row filter');
  });
});
