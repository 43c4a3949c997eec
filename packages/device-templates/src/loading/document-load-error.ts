import type { Problem } from '../problem.js';

/** Thrown by `loadDocument` when the input cannot be read as a template; carries one problem. */
export class DocumentLoadError extends Error {
  readonly problem: Problem;
  constructor(problem: Problem) {
    super(problem.message);
    this.name = 'DocumentLoadError';
    this.problem = problem;
  }
}
