/** The expression language of device templates: see docs/expressions.md. */
export { compileExpression } from './compile-expression.js';
export type {
  CompileOptions,
  CompileResult,
  CompiledExpression,
  DatapointValue,
  EvaluationContext,
  ExpressionIssue,
  ExpressionKind,
  ExpressionReferences,
} from './expression-types.js';
export { ExpressionEvaluationError } from './expression-evaluation-error.js';
export {
  expressionProblems,
  expressionEvaluationErrors,
  type ExpressionProblemCode,
  type EvaluationErrorCode,
} from './expression-problems.js';
export { EXPRESSION_LIMITS } from './expression-limits.js';
