import { defineProblems } from '../problem-definition.js';

/**
 * Codes of the issues `compileExpression` reports. Owned by the expressions module.
 * `DT_ERR_EXPR_*` make the expression unusable; `DT_WARN_EXPR_*` are likely mistakes.
 */
export const expressionProblems = defineProblems({
  DT_ERR_EXPR_EMPTY: { severity: 'error', title: 'The expression is empty' },
  DT_ERR_EXPR_TOO_LONG: { severity: 'error', title: 'The expression is longer than 800 characters' },
  DT_ERR_EXPR_TOO_COMPLEX: { severity: 'error', title: 'The expression has too many parts or is nested too deeply' },
  DT_ERR_EXPR_SYNTAX: { severity: 'error', title: 'The expression is not valid JavaScript expression syntax' },
  DT_ERR_EXPR_UNSUPPORTED: { severity: 'error', title: 'The expression uses syntax outside the expression language' },
  DT_ERR_EXPR_IDENTIFIER_UNKNOWN: { severity: 'error', title: 'The expression names something that does not exist' },
  DT_ERR_EXPR_MEMBER_FORBIDDEN: {
    severity: 'error',
    title: 'The expression reads __proto__, constructor or prototype',
  },
  DT_ERR_EXPR_DATAPOINT_FIELD: {
    severity: 'error',
    title: 'A datapoint is read without a field, or with a field it does not have',
  },
  DT_ERR_EXPR_DATAPOINT_UNKNOWN: { severity: 'error', title: 'datapoints.<id> names a datapoint that does not exist' },
  DT_ERR_EXPR_DATAPOINT_ID_INVALID: {
    severity: 'error',
    title: 'datapoints[...] is not given a valid datapointId literal',
  },
  DT_ERR_EXPR_CALL_UNSUPPORTED: {
    severity: 'error',
    title: 'The expression calls a function or method outside the whitelist',
  },
  DT_ERR_EXPR_ARITY: { severity: 'error', title: 'A function or method is called with the wrong number of arguments' },
  DT_ERR_EXPR_REGEX_POSITION: {
    severity: 'error',
    title: 'A regular expression is used other than as /.../.test(value)',
  },
  DT_ERR_EXPR_REGEX_FLAG: { severity: 'error', title: 'A regular expression has a flag other than i, m, s, u' },
  DT_ERR_EXPR_REGEX_UNSUPPORTED: {
    severity: 'error',
    title: 'A regular expression uses syntax RE2 cannot run (lookaround, backreference...)',
  },
  DT_ERR_EXPR_REGEX_ESCAPE: {
    severity: 'error',
    title: 'A regular expression escapes a letter or digit whose meaning differs between engines',
  },
  DT_ERR_EXPR_CONSTANT_FAILS: {
    severity: 'error',
    title: 'A part of the expression made only of constants fails on every evaluation',
  },
  DT_ERR_EXPR_NOT_BOOLEAN: { severity: 'error', title: 'An expression that must yield a boolean can never yield one' },
  DT_ERR_EXPR_LOGIC_UNSUPPORTED: {
    severity: 'error',
    title: 'logic uses something other than symbols, !, &&, ||, &, |, parentheses, true, false',
  },
  DT_ERR_EXPR_SYMBOL_UNDECLARED: {
    severity: 'error',
    title: 'logic names a symbol no expression of the evaluation declares',
  },
  DT_WARN_EXPR_SYMBOL_UNUSED: { severity: 'warning', title: 'A declared symbol is not used in logic' },
  DT_WARN_EXPR_MAYBE_NOT_BOOLEAN: {
    severity: 'warning',
    title: 'An expression that must yield a boolean may yield another value',
  },
  DT_WARN_EXPR_CONSTANT_RESULT: {
    severity: 'warning',
    title: 'The expression gives the same result whatever the datapoint holds',
  },
});

export type ExpressionProblemCode = keyof typeof expressionProblems;

/**
 * Codes of `ExpressionEvaluationError`: why one evaluation failed. They describe a run, not a
 * document, so they are not part of the problem catalogue.
 */
export const expressionEvaluationErrors = Object.freeze({
  DT_ERR_EVAL_CONTEXT: 'The evaluation context has no datapoint (or is not an object)',
  DT_ERR_EVAL_DATAPOINT_MISSING: 'datapoints.<id> names a datapoint the context does not hold',
  DT_ERR_EVAL_SYMBOL_MISSING: 'A logic symbol has no boolean value in the context',
  DT_ERR_EVAL_NOT_BOOLEAN: 'An expression that must yield a boolean yielded another value',
  DT_ERR_EVAL_PROPERTY_OF_NULL: 'A property is read from null or undefined',
  DT_ERR_EVAL_METHOD_RECEIVER: 'A method is called on a value of a type that does not have it',
  DT_ERR_EVAL_RANGE: 'An argument is out of range (toFixed digits, repeat count, radix...)',
  DT_ERR_EVAL_STRING_TOO_LONG: 'An operation would build a string or array over the size limit',
  DT_ERR_EVAL_VALUE_UNSUPPORTED: 'A value is not JSON-like data (function, symbol, deeply nested arrays)',
} as const);

export type EvaluationErrorCode = keyof typeof expressionEvaluationErrors;
