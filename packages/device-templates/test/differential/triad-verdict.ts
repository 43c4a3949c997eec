import { isObject } from '@triad/common';
import { validateValue } from '../../src/validate.js';

/** Triad's verdict on a mutated document, and why it may differ from the published schema's. */
export interface TriadVerdict {
  readonly valid: boolean;
  /** The error codes, sorted and without repeats. */
  readonly codes: readonly string[];
  /**
   * Set when the verdict may differ from the published schema's for a reason decision 0021
   * lists (a deliberate difference); undefined when only the schema decides.
   */
  readonly deliberate?: string;
}

/** Error families that are Triad's own checks, not schema rules (decision 0021). */
const OWN_CHECKS: readonly (readonly [prefix: string, reason: string])[] = [
  ['DT_ERR_EXPR_', 'expression checks'],
  ['DT_ERR_SEM_', 'semantic cross-checks'],
  ['DT_ERR_LOAD_', 'loader limits'],
];

/** Validates `document` as Triad does (schema and semantic checks, warnings aside). */
export function triadVerdict(document: unknown): TriadVerdict {
  const result = validateValue(document);
  const codes = [...new Set(result.errors.map((p) => p.code))].sort();
  if (isObject(document) && '$schema' in document && typeof document['$schema'] === 'string') {
    return { valid: result.valid, codes, deliberate: 'root $schema' };
  }
  const own = codes.filter((code) => OWN_CHECKS.some(([prefix]) => code.startsWith(prefix)));
  if (own.length > 0 && own.length === codes.length) {
    const reasons = OWN_CHECKS.filter(([prefix]) => own.some((code) => code.startsWith(prefix))).map(([, r]) => r);
    return { valid: result.valid, codes, deliberate: reasons.join(', ') };
  }
  return { valid: result.valid, codes };
}
