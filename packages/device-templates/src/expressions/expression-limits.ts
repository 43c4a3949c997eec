/**
 * Bounds that keep compilation and evaluation of any expression cheap. Frozen; documented in
 * docs/expressions.md ("Limits").
 */
export const EXPRESSION_LIMITS = Object.freeze({
  /** Characters of source (the schema's `expressionDef` allows 1 to 800). */
  maxSourceLength: 800,
  /** Syntax-tree nodes of one expression. */
  maxNodes: 500,
  /** Nesting depth of the syntax tree (and so of the evaluation's recursion). */
  maxDepth: 100,
  /** UTF-16 code units of a string an operation builds (concatenation, repeat, replace, join...). */
  maxStringLength: 65_536,
  /** Elements of an array an operation builds (split, slice). */
  maxArrayLength: 65_536,
  /** Nesting depth of arrays converted to text. */
  maxConversionDepth: 16,
  /**
   * Bound of the backtracking steps allowed to V8's regex engine on one input (about a millisecond
   * at worst; real runs stay far below the bound); beyond it (by the
   * pattern's cost bound and the input's length) the regex runs on RE2.
   */
  nativeRegexStepBudget: 1_000_000,
});
