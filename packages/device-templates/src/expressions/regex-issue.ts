/** A problem with a regex literal's pattern or flags, placed within the pattern. */
export interface RegexIssue {
  readonly code: 'DT_ERR_EXPR_REGEX_UNSUPPORTED' | 'DT_ERR_EXPR_REGEX_ESCAPE' | 'DT_ERR_EXPR_REGEX_FLAG';
  readonly message: string;
  /** Offset from the first character of the pattern (the one after the opening slash). */
  readonly offset: number;
  readonly length: number;
}
