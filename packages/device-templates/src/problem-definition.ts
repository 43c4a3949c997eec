import type { ProblemSeverity } from './problem.js';

/** One entry of the error catalogue: the default severity of a code and what it means. */
export interface ProblemDefinition {
  readonly severity: ProblemSeverity;
  /** Short title for docs and SARIF rule descriptions. */
  readonly title: string;
}

/** Builds a frozen catalogue section; keys are the stable codes. */
export function defineProblems<const T extends Record<string, ProblemDefinition>>(defs: T): Readonly<T> {
  return Object.freeze(defs);
}
