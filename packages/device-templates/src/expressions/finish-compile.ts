import type {
  CompiledExpression,
  CompileResult,
  EvaluationContext,
  ExpressionIssue,
  ExpressionKind,
  ExpressionReferences,
} from './expression-types.js';

/** The references of an expression that reads nothing. */
export const NO_REFERENCES: ExpressionReferences = Object.freeze({ datapoints: [], symbols: [], usesRawValue: false });

/**
 * Builds the result from the collected issues: sorted by position, errors first at a position.
 * Everything in it is frozen, so one result can be shared by every caller.
 */
export function finish(
  source: string,
  kind: ExpressionKind,
  run: (context: EvaluationContext) => unknown,
  references: ExpressionReferences,
  issues: readonly ExpressionIssue[],
): CompileResult {
  const sorted = Object.freeze(
    [...issues]
      .sort((a, b) => a.offset - b.offset || (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1))
      .map((issue) => Object.freeze(issue)),
  );
  if (sorted.some((issue) => issue.severity === 'error')) return Object.freeze({ ok: false, issues: sorted });
  const expression: CompiledExpression = Object.freeze({
    source,
    kind,
    evaluate: run,
    references: Object.freeze({
      datapoints: Object.freeze([...references.datapoints]),
      symbols: Object.freeze([...references.symbols]),
      usesRawValue: references.usesRawValue,
    }),
  });
  return Object.freeze({ ok: true, expression, warnings: sorted });
}
