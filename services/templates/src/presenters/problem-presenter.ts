import type { Problem } from '@triad/device-templates';

/** One validation problem as clients see it. */
export interface ProblemEntry {
  readonly code: string;
  readonly severity: 'error' | 'warning';
  /** JSON Pointer into the document. */
  readonly path: string;
  /** 1-based; 0 when unknown. */
  readonly line: number;
  readonly column: number;
  readonly message: string;
  readonly found?: unknown;
  readonly allowed?: string;
  readonly suggestion?: string;
}

/** Shapes one problem from the device-templates validator for the wire. */
export function presentProblem(problem: Problem): ProblemEntry {
  return {
    code: problem.code,
    severity: problem.severity,
    path: problem.path,
    line: problem.line,
    column: problem.column,
    message: problem.message,
    ...(problem.found !== undefined ? { found: problem.found } : {}),
    ...(problem.allowed !== undefined ? { allowed: problem.allowed } : {}),
    ...(problem.suggestion !== undefined ? { suggestion: problem.suggestion } : {}),
  };
}

export function presentProblems(problems: readonly Problem[]): ProblemEntry[] {
  return problems.map(presentProblem);
}

/** JSON schema of `ProblemEntry`. */
export const problemEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'severity', 'path', 'line', 'column', 'message'],
  properties: {
    code: { type: 'string', description: 'code from the device-templates catalogue (DT_ERR_*, DT_WARN_*...)' },
    severity: { type: 'string', enum: ['error', 'warning'] },
    path: { type: 'string', description: 'JSON Pointer into the document' },
    line: { type: 'integer', minimum: 0 },
    column: { type: 'integer', minimum: 0 },
    message: { type: 'string' },
    found: { description: 'the offending value, when short enough to repeat' },
    allowed: { type: 'string' },
    suggestion: { type: 'string' },
  },
} as const;
