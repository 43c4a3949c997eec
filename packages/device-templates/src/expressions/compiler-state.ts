import type { Node } from 'acorn';
import { ExpressionEvaluationError } from './expression-evaluation-error.js';
import type { ExpressionProblemCode } from './expression-problems.js';
import { expressionProblems } from './expression-problems.js';
import type { EvaluationContext, ExpressionIssue } from './expression-types.js';
import { typeOfValue, type StaticType } from './static-type.js';

/** One compiled part of an expression: a closure built once, run per evaluation. */
export type Evaluator = (context: EvaluationContext) => unknown;

export interface Compiled {
  readonly run: Evaluator;
  /** What the part can yield. */
  readonly type: StaticType;
  /** Present when the part is made of constants only: its value, computed at compile time. */
  readonly constant?: { readonly value: unknown };
}

/** What compiling one expression collects, and how parts compile their children. */
export interface CompilerState {
  readonly source: string;
  /** Ids `datapoints.<id>` may name, when the caller gave them. */
  readonly datapointIds: readonly string[] | undefined;
  readonly issues: ExpressionIssue[];
  /** Referenced `datapoints.<id>` ids, in order of first appearance. */
  readonly referencedDatapoints: string[];
  usesRawValue: boolean;
  compile(node: Node): Compiled;
}

/** A placeholder for a part that has an error: compilation goes on to find more issues. */
export const FAILED: Compiled = Object.freeze({
  run: () => undefined,
  type: 0b111111,
});

/** Records an issue at `node` (or at an explicit range) and returns `FAILED`. */
export function report(
  state: CompilerState,
  code: ExpressionProblemCode,
  message: string,
  at: { readonly start: number; readonly end: number },
  extra?: { readonly name?: string; readonly suggestion?: string },
): Compiled {
  state.issues.push({
    code,
    severity: expressionProblems[code].severity,
    message,
    offset: at.start,
    length: at.end - at.start,
    ...(extra?.name !== undefined ? { name: extra.name } : {}),
    ...(extra?.suggestion !== undefined ? { suggestion: extra.suggestion } : {}),
  });
  return FAILED;
}

/** A constant part. Arrays are frozen: constants are shared by every evaluation. */
export function constant(value: unknown): Compiled {
  if (Array.isArray(value)) Object.freeze(value);
  return { run: () => value, type: typeOfValue(value), constant: { value } };
}

const FOLDING_CONTEXT: EvaluationContext = Object.freeze({
  datapoint: Object.freeze({ value: undefined, rawValue: undefined }),
});

/**
 * Folds `compiled` to a constant when all its `inputs` are constants. A constant part that fails
 * would fail on every evaluation: that is reported as `DT_ERR_EXPR_CONSTANT_FAILS` at `node`.
 */
export function fold(state: CompilerState, node: Node, compiled: Compiled, inputs: readonly Compiled[]): Compiled {
  if (compiled === FAILED || !inputs.every((input) => input.constant !== undefined)) return compiled;
  try {
    return constant(compiled.run(FOLDING_CONTEXT));
  } catch (error) {
    if (!(error instanceof ExpressionEvaluationError)) throw error;
    return report(state, 'DT_ERR_EXPR_CONSTANT_FAILS', `this part fails on every evaluation: ${error.message}`, node);
  }
}
