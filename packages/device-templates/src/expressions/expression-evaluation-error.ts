import type { EvaluationErrorCode } from './expression-problems.js';

/**
 * The only error `CompiledExpression.evaluate` throws: a value of the wrong type, a missing
 * datapoint or symbol, a string over the size limit... `code` is one of
 * `expressionEvaluationErrors`; `message` says what happened in the expression's terms.
 */
export class ExpressionEvaluationError extends Error {
  override readonly name = 'ExpressionEvaluationError';
  readonly code: EvaluationErrorCode;

  constructor(code: EvaluationErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
