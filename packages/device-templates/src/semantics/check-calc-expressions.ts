import type { SemanticCheck } from './semantic-reporter.js';
import { isObject } from './template-walker.js';

// `datapoint.rawValue`, `datapoint?.rawValue` or `datapoint['rawValue']`.
const RAW_VALUE = /\bdatapoint\s*(?:\??\.\s*rawValue\b|\[\s*(['"])rawValue\1\s*\])/;

/**
 * Flags a `calcConfig.expression` that reads `datapoint.rawValue`: a calculated datapoint is not
 * read by a driver, so it has no raw value of its own.
 */
export const checkCalcExpressions: SemanticCheck = (model, reporter) => {
  for (const datapoint of model.datapoints) {
    const calc = datapoint.value['calcConfig'];
    if (!isObject(calc)) continue;
    const expression = calc['expression'];
    if (typeof expression !== 'string' || !RAW_VALUE.test(expression)) continue;
    reporter.report('DT_WARN_SEM_CALC_RAW_VALUE', [...datapoint.path, 'calcConfig', 'expression'], {
      message:
        'The calcConfig expression reads datapoint.rawValue, but a calculated datapoint is not read from a driver ' +
        'and has no raw value; compute it from other values instead.',
      found: expression,
    });
  }
};
