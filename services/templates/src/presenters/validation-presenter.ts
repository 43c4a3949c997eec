import type { ValidationResult } from '@triad/device-templates';
import { presentProblems, problemEntrySchema, type ProblemEntry } from './problem-presenter.js';

/** The answer of `POST /validate`. */
export interface ValidationReply {
  readonly valid: boolean;
  readonly errors: readonly ProblemEntry[];
  readonly warnings: readonly ProblemEntry[];
}

export function presentValidation(result: ValidationResult): ValidationReply {
  return { valid: result.valid, errors: presentProblems(result.errors), warnings: presentProblems(result.warnings) };
}

export const validationReplySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['valid', 'errors', 'warnings'],
  properties: {
    valid: { type: 'boolean' },
    errors: { type: 'array', items: problemEntrySchema },
    warnings: { type: 'array', items: problemEntrySchema },
  },
} as const;
