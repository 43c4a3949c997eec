// The expression checks of the validator: codes, paths and the line:column of the offending part
// inside the expression string. Expected places are found by searching the text itself.
import jsYaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../loading/load-document.js';
import type { Problem } from '../problem.js';
import { validateSource, validateValue } from '../validate.js';
import { checkSemantics } from './check-semantics.js';
import { semanticWarnings, validTemplate, withCode, type Fixture, placeOf } from './test-support/semantic-fixtures.js';
import { listAt, objectAt } from '../test-support/fixture-paths.js';

const temperature = (t: Fixture) => objectAt(t, 'datapointSets', 0, 'datapoints', 2);
const evaluationPath = '/datapointSets/0/datapoints/2/alertConfig/evaluations/0';

function problemsOf(text: string, format: 'json' | 'yaml'): Problem[] {
  return checkSemantics(loadDocument(text, { format, file: `t.ndst.${format}` }));
}

describe('checkExpressions: codes, paths and messages', () => {
  it('reports an unknown name in a calcConfig expression as an error with the compiler code and suggestion', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 0, 'datapoints', 3, 'calcConfig').expression = 'datapoints.temperatur.value / 2';
    const [problem] = withCode(semanticWarnings(t), 'DT_ERR_EXPR_DATAPOINT_UNKNOWN');
    expect(problem).toMatchObject({
      severity: 'error',
      path: '/datapointSets/0/datapoints/3/calcConfig/expression',
      found: 'temperatur',
      suggestion: 'temperature',
    });
    expect(problem!.message).toMatch(
      /^calcConfig expression of datapoint "temperatureHalf" in set "deviceInfo": there is no datapoint 'temperatur'/,
    );
  });

  it('only lets datapoints.<id> name datapoints of the same set', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 0, 'datapoints', 0).convConfig = { expression: 'datapoints.ifIndex.value' };
    objectAt(t, 'datapointSets', 1, 'datapoints', 0).convConfig = { expression: 'datapoints.ifIndex.value' };
    const problems = withCode(semanticWarnings(t), 'DT_ERR_EXPR_DATAPOINT_UNKNOWN');
    // The same source compiles once per set: valid in ifTable, unknown in deviceInfo.
    expect(problems.map((p) => p.path)).toEqual(['/datapointSets/0/datapoints/0/convConfig/expression']);
    expect(problems[0]!.message).toMatch(/^convConfig expression of datapoint "sysName" in set "deviceInfo": /);
  });

  it('requires alert expressions to be able to yield a boolean and names the expression by its symbol', () => {
    const t = validTemplate();
    objectAt(temperature(t), 'alertConfig', 'evaluations', 1, 'expressions', 0).expression = 'datapoint.value * 2';
    const [problem] = withCode(semanticWarnings(t), 'DT_ERR_EXPR_NOT_BOOLEAN');
    expect(problem).toMatchObject({
      severity: 'error',
      path: '/datapointSets/0/datapoints/2/alertConfig/evaluations/1/expressions/0/expression',
    });
    expect(problem!.message).toMatch(
      /^alert expression "hot" in evaluations\[1\] of datapoint "temperature" in set "deviceInfo": this expression yields a number/,
    );
  });

  it('reports a logic symbol no expression declares at the logic, with a suggestion', () => {
    const t = validTemplate();
    objectAt(temperature(t), 'alertConfig', 'evaluations', 0).logic = 'hot & veryHott';
    const [problem] = withCode(semanticWarnings(t), 'DT_ERR_EXPR_SYMBOL_UNDECLARED');
    expect(problem).toMatchObject({
      severity: 'error',
      path: `${evaluationPath}/logic`,
      found: 'veryHott',
      suggestion: 'veryHot',
    });
    expect(problem!.message).toContain('alert logic in evaluations[0] of datapoint "temperature"');
  });

  it('reports a declared symbol that logic does not use at its declaration, as a warning', () => {
    const t = validTemplate();
    objectAt(temperature(t), 'alertConfig', 'evaluations', 0).logic = 'hot';
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_EXPR_SYMBOL_UNUSED');
    expect(problem).toMatchObject({
      severity: 'warning',
      path: `${evaluationPath}/expressions/1/symbol`,
      found: 'veryHot',
    });
  });

  it('checks rowFilterConfig expressions and logic', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 1, 'datapoints', 1).rowFilterConfig = {
      expressions: [{ symbol: 'up', expression: 'datapont.value === 1' }],
      logic: 'up | down',
    };
    const problems = semanticWarnings(t);
    const [identifier] = withCode(problems, 'DT_ERR_EXPR_IDENTIFIER_UNKNOWN');
    expect(identifier).toMatchObject({
      path: '/datapointSets/1/datapoints/1/rowFilterConfig/expressions/0/expression',
      suggestion: 'datapoint',
    });
    expect(identifier!.message).toMatch(/^row filter expression "up" of datapoint "ifOperStatus" in set "ifTable": /);
    const [symbol] = withCode(problems, 'DT_ERR_EXPR_SYMBOL_UNDECLARED');
    expect(symbol).toMatchObject({ path: '/datapointSets/1/datapoints/1/rowFilterConfig/logic', found: 'down' });
  });

  it('still compiles the logic of an evaluation with no expressions, beside the quirk warning', () => {
    const t = validTemplate();
    objectAt(temperature(t), 'alertConfig', 'evaluations', 0).expressions = [];
    const problems = semanticWarnings(t);
    expect(withCode(problems, 'DT_WARN_QUIRK_EVALUATION_NO_EXPRESSIONS')).toHaveLength(1);
    expect(withCode(problems, 'DT_ERR_EXPR_SYMBOL_UNDECLARED').map((p) => p.found)).toEqual(['hot', 'veryHot']);
  });

  it('leaves expressions the schema refuses (empty, too long, not a string) to the schema', () => {
    const t = validTemplate();
    objectAt(temperature(t), 'alertConfig', 'evaluations', 0, 'expressions', 0).expression = '';
    objectAt(temperature(t), 'alertConfig', 'evaluations', 0, 'expressions', 1).expression = 'x'.repeat(801);
    objectAt(t, 'datapointSets', 0, 'datapoints', 3, 'calcConfig').expression = 42;
    expect(semanticWarnings(t).filter((p) => p.code.includes('_EXPR_'))).toEqual([]);
  });

  it('makes a template with an expression error invalid, and passes one with only expression warnings', () => {
    const broken = validTemplate();
    objectAt(broken, 'datapointSets', 0, 'datapoints', 3, 'calcConfig').expression = 'datapoint.value +';
    const result = validateValue(broken);
    expect(result.valid).toBe(false);
    expect(result.errors.map((p) => p.code)).toEqual(['DT_ERR_EXPR_SYNTAX']);
    const warned = validTemplate();
    objectAt(temperature(warned), 'alertConfig', 'evaluations', 0).logic = 'hot';
    expect(validateValue(warned)).toMatchObject({ valid: true, errors: [] });
  });

  it('reports every datapoint of a repeated rule at its own path (one compilation, many places)', () => {
    const t = validTemplate();
    const copies = Array.from({ length: 30 }, (_, i) => ({
      commonConfig: { datapointId: `copy${i}`, datapointType: 'DATAPOINT' },
      calcConfig: { expression: 'datapoints.temperature.value * ratio' },
    }));
    listAt(t, 'datapointSets', 0, 'datapoints').push(...copies);
    const problems = withCode(semanticWarnings(t), 'DT_ERR_EXPR_IDENTIFIER_UNKNOWN');
    expect(problems.map((p) => p.path)).toEqual(
      copies.map((_, i) => `/datapointSets/0/datapoints/${5 + i}/calcConfig/expression`),
    );
    expect(problems[29]!.message).toContain('datapoint "copy29"');
  });
});

describe('checkExpressions: line and column inside the expression', () => {
  it('points at the offending identifier in a JSON string that holds escapes before it', () => {
    const t = validTemplate();
    objectAt(temperature(t), 'alertConfig', 'evaluations', 0, 'expressions', 0).expression =
      'datapoint.quality === "été" && datapont.value > 70';
    // Written with \" and \u escapes, which shift the identifier in the text but not in the value.
    const text = JSON.stringify(t, null, 2).replace('\\"été\\"', '\\"\\u00e9t\\u00e9\\"');
    expect(text).toContain('\\u00e9t\\u00e9');
    const [problem] = withCode(problemsOf(text, 'json'), 'DT_ERR_EXPR_IDENTIFIER_UNKNOWN');
    expect(problem).toMatchObject({ path: `${evaluationPath}/expressions/0/expression`, ...placeOf(text, 'datapont') });
  });

  it('points at an undeclared logic symbol and at an unused symbol declaration in JSON', () => {
    const t = validTemplate();
    objectAt(temperature(t), 'alertConfig', 'evaluations', 0).logic = 'hot & veryHott';
    const text = JSON.stringify(t, null, 2);
    const problems = problemsOf(text, 'json');
    expect(withCode(problems, 'DT_ERR_EXPR_SYMBOL_UNDECLARED')[0]).toMatchObject(placeOf(text, 'veryHott'));
    // The first evaluation's second declaration: "veryHot" as a symbol value.
    expect(withCode(problems, 'DT_WARN_EXPR_SYMBOL_UNUSED')[0]).toMatchObject(placeOf(text, '"veryHot"'));
  });

  it('points at the offending identifier in YAML plain, quoted and block scalars', () => {
    const t = validTemplate();
    const alarm = objectAt(temperature(t), 'alertConfig', 'evaluations', 0);
    objectAt(alarm, 'expressions', 0).expression = "datapoint.quality === 'ok' && plainBad > 1";
    objectAt(alarm, 'expressions', 1).expression = 'datapoint.value > 85 ||\ndatapoint.value < -quotedBad\n';
    objectAt(t, 'datapointSets', 0, 'datapoints', 3, 'calcConfig').expression = 'datapoint.value\n  * blockBad\n';
    const text = jsYaml.dump(t, { lineWidth: 200 });
    expect(text).toMatch(/expression: >-?\n|expression: \|-?\n/); // a block scalar is among the styles
    const problems = withCode(problemsOf(text, 'yaml'), 'DT_ERR_EXPR_IDENTIFIER_UNKNOWN');
    const byName = new Map(problems.map((p) => [p.found, p]));
    for (const name of ['plainBad', 'quotedBad', 'blockBad'])
      expect(byName.get(name), name).toMatchObject(placeOf(text, name));
  });

  it('points at the identifier in a hand-written YAML file: single-quoted, double-quoted and literal', () => {
    const text = jsYaml
      .dump(validTemplate(), { lineWidth: 200 })
      .replaceAll('expression: datapoint.value > 70', "expression: 'datapoint.quality === ''good'' && tooHot'")
      .replaceAll('expression: datapoint.value > 85', 'expression: "datapoint.value > 85 && \\"x\\" !== veryBad"')
      .replace(
        'expression: datapoint.value / 2',
        'expression: |\n            datapoint.value /\n              halfBad',
      );
    const problems = withCode(problemsOf(text, 'yaml'), 'DT_ERR_EXPR_IDENTIFIER_UNKNOWN');
    expect(problems.map((p) => p.found).sort()).toEqual(['halfBad', 'tooHot', 'tooHot', 'veryBad', 'veryBad']);
    for (const p of problems) {
      const occurrence = problems.filter((q) => q.found === p.found).indexOf(p) + 1;
      expect(p).toMatchObject(placeOf(text, p.found as string, occurrence));
    }
  });

  it('places problems of a document without text at 0:0', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 0, 'datapoints', 3, 'calcConfig').expression = 'datapoint.value * ratio';
    expect(withCode(semanticWarnings(t), 'DT_ERR_EXPR_IDENTIFIER_UNKNOWN')[0]).toMatchObject({ line: 0, column: 0 });
  });

  it('reports through validateSource with the file position', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 0, 'datapoints', 3, 'calcConfig').expression =
      'Math.max(datapoint.value, 1) + Math.rnd()';
    const text = JSON.stringify(t, null, 2);
    const result = validateSource(text, { file: 't.ndst.json' });
    expect(result.valid).toBe(false);
    expect(result.errors[0]).toMatchObject({
      code: 'DT_ERR_EXPR_CALL_UNSUPPORTED',
      found: 'rnd',
      ...placeOf(text, 'rnd()'),
    });
  });
});
