import { describe, expect, it } from 'vitest';
import { compileTemplatePipeline } from './compile-pipeline.js';
import { createTemplateEvaluator } from './template-evaluator.js';
import { TemplateEvaluatorError } from './template-evaluator-error.js';
import { calc, evaluation, read, set, table, template } from './test-support/template-builders.js';
import type { DeviceTemplate } from '../generated/device-template.generated.js';

function issuesOf(t: DeviceTemplate) {
  try {
    compileTemplatePipeline(t);
  } catch (error) {
    expect(error).toBeInstanceOf(TemplateEvaluatorError);
    return (error as TemplateEvaluatorError).issues;
  }
  throw new Error('expected a TemplateEvaluatorError');
}

describe('compileTemplatePipeline', () => {
  it('compiles a template and orders its sets and calculations', () => {
    const pipeline = compileTemplatePipeline(
      template(set('a', [calc('y', 'datapoints.x.value + 1'), read('x')]), set('b', [read('z')])),
    );
    expect(pipeline.sets.map((s) => s.id)).toEqual(['a', 'b']);
    expect(pipeline.sets[0]!.calcOrder).toEqual([0]);
    expect(pipeline.sets[0]!.dependents).toEqual([[], [0]]);
  });

  it('lists every expression that does not compile, with its JSON Pointer', () => {
    const issues = issuesOf(
      template(
        set('s', [
          read('a', { convConfig: { expression: 'datapoint.value +' } }),
          read('b', {
            alertConfig: { evaluations: [evaluation(401, 'datapoint.value > 1', { logic: 'c && missing' })] },
          }),
          calc('c', 'datapoints.nope.value'),
        ]),
      ),
    );
    expect(issues.map((i) => [i.code, i.path, i.expressionCode])).toEqual([
      ['DT_ERR_PIPE_BUILD_EXPRESSION', '/datapointSets/0/datapoints/0/convConfig/expression', 'DT_ERR_EXPR_SYNTAX'],
      [
        'DT_ERR_PIPE_BUILD_EXPRESSION',
        '/datapointSets/0/datapoints/1/alertConfig/evaluations/0/logic',
        'DT_ERR_EXPR_SYMBOL_UNDECLARED',
      ],
      [
        'DT_ERR_PIPE_BUILD_EXPRESSION',
        '/datapointSets/0/datapoints/2/calcConfig/expression',
        'DT_ERR_EXPR_DATAPOINT_UNKNOWN',
      ],
    ]);
    expect(issues[1]!.offset).toBe(5);
  });

  it('rejects an unknown unit at build time', () => {
    expect(issuesOf(template(set('s', [read('t', { unitsConfig: { from: 'celsius', to: 'F' } })])))).toEqual([
      expect.objectContaining({
        code: 'DT_ERR_PIPE_BUILD_UNIT_UNKNOWN',
        path: '/datapointSets/0/datapoints/0/unitsConfig/from',
      }),
    ]);
  });

  it('detects a cycle of calculated datapoints', () => {
    const issues = issuesOf(
      template(
        set('s', [read('a'), calc('b', 'datapoints.c.value'), calc('c', 'datapoints.b.value + datapoints.a.value')]),
      ),
    );
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'DT_ERR_PIPE_BUILD_CALC_CYCLE',
        path: '/datapointSets/0/datapoints/1/calcConfig/expression',
      }),
    ]);
    expect(issues[0]!.message).toContain('b -> c -> b');
  });

  it('rejects duplicate datapointIds and table indexes that name no datapoint', () => {
    const issues = issuesOf(
      template(set('s', [read('a'), read('a')]), table('t', 'tableDynamic', ['ifIndex'], [read('x')])),
    );
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ['DT_ERR_PIPE_BUILD_DATAPOINT_DUPLICATE', '/datapointSets/0/datapoints/1/commonConfig/datapointId'],
      ['DT_ERR_PIPE_BUILD_TABLE_INDEX_UNKNOWN', '/datapointSets/1/tableAddress/indexes/0'],
    ]);
  });

  it('refuses something that is not a template with a typed error', () => {
    expect(() => createTemplateEvaluator({} as DeviceTemplate)).toThrow(TemplateEvaluatorError);
  });

  it('states the first issue and the count in the error message', () => {
    const t = template(
      set('s', [read('a', { convConfig: { expression: '(' } }), read('b', { unitsConfig: { from: 'x', to: 'y' } })]),
    );
    expect(() => compileTemplatePipeline(t)).toThrow(
      /at \/datapointSets\/0\/datapoints\/0\/convConfig\/expression \(and 2 more\)/,
    );
  });
});
