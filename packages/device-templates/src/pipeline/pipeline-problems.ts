/**
 * Codes of the value pipeline. `DT_ERR_PIPE_BUILD_*`: the template cannot be turned into a
 * pipeline (`TemplateEvaluatorError.issues`). `DT_ERR_PIPE_UPDATE_*`: an input was rejected
 * (`update-rejected` events). `DT_ERR_PIPE_UNITS_*`: a unit conversion failed at run time
 * (`evaluation-error` events; failing expressions carry the expression module's `DT_ERR_EVAL_*`).
 * Codes never change meaning.
 */
export const pipelineProblems = Object.freeze({
  DT_ERR_PIPE_BUILD_EXPRESSION: 'An expression of the template does not compile',
  DT_ERR_PIPE_BUILD_UNIT_UNKNOWN: 'A unitsConfig unit is not a convert-units 2.x abbreviation',
  DT_ERR_PIPE_BUILD_UNIT_MEASURE: 'unitsConfig converts between units of different measures',
  DT_ERR_PIPE_BUILD_UNIT_NO_TARGET: 'unitsConfig has neither a to unit nor toBest: true',
  DT_ERR_PIPE_BUILD_UNIT_ALL_EXCLUDED: 'unitsConfig.exclude leaves toBest no unit to choose',
  DT_ERR_PIPE_BUILD_CALC_CYCLE: 'Calculated datapoints depend on each other in a cycle',
  DT_ERR_PIPE_BUILD_DATAPOINT_DUPLICATE: 'Two datapoints of one set share a datapointId',
  DT_ERR_PIPE_BUILD_SET_DUPLICATE: 'Two datapoint sets share a datapointSetId',
  DT_ERR_PIPE_BUILD_TABLE_INDEX_UNKNOWN: 'tableAddress.indexes names a datapoint the set does not have',
  DT_ERR_PIPE_BUILD_TEMPLATE_SHAPE: 'The template lacks a part the pipeline needs (it was not validated)',
  DT_ERR_PIPE_UPDATE_MALFORMED: 'The input is not an update, a row removal or a table update',
  DT_ERR_PIPE_UPDATE_SET_UNKNOWN: 'The input names a datapoint set the template does not have',
  DT_ERR_PIPE_UPDATE_DATAPOINT_UNKNOWN: 'The input names a datapoint the set does not have',
  DT_ERR_PIPE_UPDATE_CALCULATED: 'The input sets a calculated datapoint, which only its calcConfig computes',
  DT_ERR_PIPE_UPDATE_NOT_TABLE: 'A row removal or table update names a map set',
  DT_ERR_PIPE_UPDATE_ROW_UNKNOWN:
    'The input names a row that a tableStatic set does not have, or removes a row that does not exist',
  DT_ERR_PIPE_UPDATE_ROW_STATIC: 'A row of a tableStatic set cannot be removed',
  DT_ERR_PIPE_UPDATE_NOT_FINITE:
    'The input carries NaN or an infinite number (JSON 1e400 parses as Infinity), which no event can report',
  DT_ERR_PIPE_UNITS_NOT_NUMBER: 'unitsConfig got a value that is not a number',
  DT_ERR_PIPE_RESULT_NOT_FINITE: 'A conversion or calculation yielded NaN or an infinite number (JSON cannot carry it)',
  DT_ERR_PIPE_UNITS_FAILED: 'convert-units could not convert the value',
  DT_ERR_PIPE_EVAL_UNEXPECTED:
    'An expression failed in a way the expression language does not define (a bug: please report it)',
} as const);

export type PipelineProblemCode = keyof typeof pipelineProblems;
