import type { DocumentPath } from '../problem.js';
import type { SchemaProblemCode } from './schema-problems.js';

/**
 * A schema problem before it gets its source position: `path` is what the problem reports,
 * `at` (with `which`) is where its line and column come from. They differ for a missing key
 * (reported at the key's path, positioned at the object that lacks it) and an unknown key
 * (positioned at the key rather than its value).
 */
export interface ProblemDraft {
  readonly code: SchemaProblemCode;
  readonly path: DocumentPath;
  readonly at: DocumentPath;
  readonly which: 'value' | 'key';
  readonly message: string;
  readonly found?: unknown;
  readonly allowed?: string;
  readonly suggestion?: string;
}

/** A draft positioned at its own path's value. */
export function draftAt(
  code: SchemaProblemCode,
  path: DocumentPath,
  message: string,
  extra: Pick<ProblemDraft, 'found' | 'allowed' | 'suggestion'> = {},
): ProblemDraft {
  return { code, path, at: path, which: 'value', message, ...withoutUndefined(extra) };
}

/** Drops undefined fields so problems compare and serialise cleanly. */
export function withoutUndefined<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (field !== undefined) out[key] = field;
  return out as T;
}
