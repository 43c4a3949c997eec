import { loadProblems } from './loading/load-problems.js';
import { schemaProblems } from './schema/schema-problems.js';
import { semanticProblems } from './semantics/semantic-problems.js';
import { expressionProblems } from './expressions/expression-problems.js';
import type { ProblemDefinition } from './problem-definition.js';

/**
 * The package's one error catalogue: every code a problem can carry, with its default
 * severity and title. Codes never change meaning; `docs/errors.md` lists them all.
 */
export const problemCatalogue: Readonly<Record<string, ProblemDefinition>> = Object.freeze({
  ...loadProblems,
  ...schemaProblems,
  ...semanticProblems,
  ...expressionProblems,
});

export type ProblemCode =
  | keyof typeof loadProblems
  | keyof typeof schemaProblems
  | keyof typeof semanticProblems
  | keyof typeof expressionProblems;
