import type { LoadedDocument } from '../loading/loaded-document.js';
import { toJsonPointer, type DocumentPath, type Problem } from '../problem.js';
import { semanticProblems, type SemanticProblemCode } from './semantic-problems.js';
import type { TemplateModel } from './template-walker.js';

/** What a check says about one problem; the reporter adds code, severity, path and position. */
export interface ProblemDetails {
  readonly message: string;
  readonly found?: unknown;
  readonly allowed?: string;
  readonly suggestion?: string;
  /** Point at the key naming the value rather than at the value (unknown keys). Default 'value'. */
  readonly at?: 'key' | 'value';
}

/**
 * Collects the problems of one semantic pass. Positions are looked up only for problems that
 * are reported, so a clean document costs no `positionOf` call at all.
 */
export class SemanticReporter {
  readonly #document: LoadedDocument;
  readonly #problems: Problem[] = [];

  constructor(document: LoadedDocument) {
    this.#document = document;
  }

  /** Records a problem with the catalogue severity of `code`. */
  report(code: SemanticProblemCode, path: DocumentPath, details: ProblemDetails): void {
    const position = this.#document.positionOf(path, details.at ?? 'value');
    const problem: { -readonly [K in keyof Problem]: Problem[K] } = {
      code,
      severity: semanticProblems[code].severity,
      path: toJsonPointer(path),
      line: position.line,
      column: position.column,
      message: details.message,
    };
    if (details.found !== undefined) {
      const found = shortValue(details.found);
      if (found !== undefined) problem.found = found;
    }
    if (details.allowed !== undefined) problem.allowed = details.allowed;
    if (details.suggestion !== undefined) problem.suggestion = details.suggestion;
    this.#problems.push(problem);
  }

  /**
   * Names a place for a message that mentions a second location ("first declared at line 12,
   * column 7"); falls back to the JSON Pointer when the document has no text positions.
   */
  describePlace(path: DocumentPath, which: 'key' | 'value' = 'value'): string {
    const position = this.#document.positionOf(path, which);
    const pointer = toJsonPointer(path);
    return position.line > 0 ? `line ${position.line}, column ${position.column} (${pointer})` : pointer;
  }

  /** The problems reported so far, in the order reported. */
  get problems(): Problem[] {
    return this.#problems;
  }
}

/** A check of the semantic pass: reads the model, reports through the reporter, never throws. */
export type SemanticCheck = (model: TemplateModel, reporter: SemanticReporter) => void;

const MAX_FOUND_LENGTH = 80;

/** The value as `Problem.found`: strings cut at 80 characters; objects only when their JSON is short. */
export function shortValue(value: string): string;
export function shortValue(value: unknown): unknown;
export function shortValue(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.length > MAX_FOUND_LENGTH ? value.slice(0, MAX_FOUND_LENGTH - 1) + '…' : value;
  }
  if (value === null || typeof value !== 'object') return value;
  const json = JSON.stringify(value);
  return json.length <= MAX_FOUND_LENGTH ? value : undefined;
}

/** Quotes a value for a message: strings in single quotes, cut at 80 characters. */
export function quote(value: unknown): string {
  if (typeof value === 'string') return `'${shortValue(value)}'`;
  const json = JSON.stringify(value);
  return json === undefined
    ? String(value)
    : json.length > MAX_FOUND_LENGTH
      ? json.slice(0, MAX_FOUND_LENGTH - 1) + '…'
      : json;
}

/** Lists values for a message: `'a', 'b' and 'c'`. */
export function listOf(values: readonly string[], conjunction = 'and'): string {
  const quoted = values.map((v) => `'${v}'`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} ${conjunction} ${quoted[quoted.length - 1]!}`;
}
