import { loadDocument, type LoadOptions } from './loading/load-document.js';
import { DocumentLoadError } from './loading/document-load-error.js';
import { documentFromValue } from './loading/value-document.js';
import type { LoadedDocument } from './loading/loaded-document.js';
import { checkSchema } from './schema/check-schema.js';
import { checkSemantics } from './semantics/check-semantics.js';
import type { OidNameResolver } from './semantics/check-snmp-addresses.js';
import type { Problem, ValidationResult } from './problem.js';

export interface ValidateOptions extends LoadOptions {
  /** Report warnings as errors (the CLI's `--strict`). Default false. */
  readonly strict?: boolean;
  /** Resolves MIB names in SNMP addresses; without it only their form is checked. */
  readonly oidNames?: OidNameResolver;
}

/** A validation result that also carries the parsed document when the text could be parsed. */
export interface SourceValidationResult extends ValidationResult {
  readonly document?: LoadedDocument;
}

/**
 * Loads JSON or YAML text (or UTF-8 bytes) and validates it: schema, then semantic checks.
 * Never throws for bad input: a file that cannot be read as a template yields one error.
 */
export function validateSource(input: string | Uint8Array, options: ValidateOptions = {}): SourceValidationResult {
  let document: LoadedDocument;
  try {
    document = loadDocument(input, options);
  } catch (error) {
    if (error instanceof DocumentLoadError) {
      return { valid: false, file: options.file ?? '<input>', errors: [error.problem], warnings: [] };
    }
    throw error;
  }
  return { ...validateDocument(document, options), document };
}

/** Validates an already loaded document. */
export function validateDocument(
  document: LoadedDocument,
  options: { readonly strict?: boolean; readonly oidNames?: OidNameResolver } = {},
): ValidationResult {
  const problems: Problem[] = [...checkSchema(document)];
  // Semantic checks assume the document's shape; they still run on an invalid document and
  // skip whatever is malformed, so one run reports as much as possible.
  problems.push(...checkSemantics(document, options.oidNames ? { oidNames: options.oidNames } : {}));
  return partition(document.file, problems, options.strict === true);
}

/** Validates a parsed value that has no source text (positions are reported as 0:0). */
export function validateValue(
  value: unknown,
  options: { readonly strict?: boolean; readonly file?: string; readonly oidNames?: OidNameResolver } = {},
): ValidationResult {
  return validateDocument(documentFromValue(value, options.file ?? '<value>'), options);
}

function partition(file: string, problems: readonly Problem[], strict: boolean): ValidationResult {
  const errors: Problem[] = [];
  const warnings: Problem[] = [];
  for (const p of problems) {
    if (p.severity === 'error') errors.push(p);
    else if (strict) errors.push({ ...p, severity: 'error' });
    else warnings.push(p);
  }
  const byPlace = (a: Problem, b: Problem) => a.line - b.line || a.column - b.column || a.path.localeCompare(b.path);
  errors.sort(byPlace);
  warnings.sort(byPlace);
  return { valid: errors.length === 0, file, errors, warnings };
}
