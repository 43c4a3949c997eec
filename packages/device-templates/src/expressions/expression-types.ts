/**
 * The public shapes of the expression language: what `compileExpression` takes and returns, and
 * what a compiled expression is evaluated against. See docs/expressions.md for the language.
 */

/**
 * What an expression is for, which decides what it may contain and what it must yield:
 * - `value`: `calcConfig` / `convConfig`; any result.
 * - `boolean`: alert expressions and row filters; the result must be a boolean.
 * - `logic`: the `logic` of an evaluation; only declared symbols, `!`, `&&`, `||`, `&`, `|`,
 *   parentheses, `true` and `false`.
 */
export type ExpressionKind = 'value' | 'boolean' | 'logic';

export interface CompileOptions {
  readonly kind: ExpressionKind;
  /** `logic` only: the symbols the evaluation's expressions declare. Others are errors. */
  readonly symbols?: readonly string[];
  /**
   * The ids `datapoints.<id>` may name (the datapoints of the same set / table row). When
   * omitted, references are not checked against a list (only against the datapointId pattern).
   */
  readonly datapointIds?: readonly string[];
}

/** One problem found in an expression. Offsets are UTF-16 code units inside the expression string. */
export interface ExpressionIssue {
  /** Stable code from `expressionProblems` (`DT_ERR_EXPR_*`, `DT_WARN_EXPR_*`). */
  readonly code: string;
  readonly severity: 'error' | 'warning';
  /** One sentence: what is wrong and what is allowed. */
  readonly message: string;
  /** Start of the offending part (0-based). */
  readonly offset: number;
  /** Length of the offending part; 0 when the issue is about the whole expression or about a declaration elsewhere. */
  readonly length: number;
  /** The offending name (identifier, symbol, datapoint id, method), when there is one. */
  readonly name?: string;
  /** The name most likely meant, for typos. */
  readonly suggestion?: string;
}

/** What an expression reads; for cross-checks (calc cycles, rawValue of calculated datapoints). */
export interface ExpressionReferences {
  /** Ids named by `datapoints.<id>`, in order of first appearance. */
  readonly datapoints: readonly string[];
  /** `logic` only: the declared symbols it uses, in order of first appearance. */
  readonly symbols: readonly string[];
  /** Whether the expression reads `datapoint.rawValue`. */
  readonly usesRawValue: boolean;
}

/** The fields of one datapoint an expression can read. Values are JSON-like data. */
export interface DatapointValue {
  readonly value: unknown;
  readonly rawValue: unknown;
  readonly quality?: string;
  /** Epoch milliseconds. */
  readonly timestamp?: number;
}

/** What an expression is evaluated against. */
export interface EvaluationContext {
  /** The datapoint the expression belongs to (`datapoint.value`...). */
  readonly datapoint: DatapointValue;
  /** The other datapoints of the same set or table row, by datapointId (`datapoints.<id>.value`). */
  readonly datapoints?: Readonly<Record<string, DatapointValue>>;
  /** `logic` only: the boolean result of each expression, by symbol. */
  readonly symbols?: Readonly<Record<string, boolean>>;
}

/**
 * A checked expression, ready to run many times. `evaluate` never throws anything but an
 * `ExpressionEvaluationError`; it runs in bounded time (no loops, capped strings, linear regexes).
 * For `boolean` and `logic` kinds the result is always a boolean. A result may be a frozen array
 * shared by every evaluation (a constant `[1, 2]`): callers must not mutate results.
 */
export interface CompiledExpression {
  readonly source: string;
  readonly kind: ExpressionKind;
  readonly evaluate: (context: EvaluationContext) => unknown;
  readonly references: ExpressionReferences;
}

export type CompileResult =
  | { readonly ok: true; readonly expression: CompiledExpression; readonly warnings: readonly ExpressionIssue[] }
  | { readonly ok: false; readonly issues: readonly ExpressionIssue[] };
