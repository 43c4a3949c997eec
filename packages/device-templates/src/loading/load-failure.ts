import { DocumentLoadError } from './document-load-error.js';
import { loadProblems, type LoadProblemCode } from './load-problems.js';
import type { SourcePosition } from './loaded-document.js';

/** Where a load problem sits: a JSON Pointer (`''` when none applies) and a 1-based place. */
export interface LoadFailurePlace {
  readonly path: string;
  readonly line: number;
  readonly column: number;
}

/** Builds the `DocumentLoadError` for one load problem (severity from the catalogue). */
export function loadFailure(
  code: LoadProblemCode,
  place: LoadFailurePlace,
  message: string,
  extra: { readonly found?: unknown; readonly allowed?: string; readonly suggestion?: string } = {},
): DocumentLoadError {
  return new DocumentLoadError({
    code,
    severity: loadProblems[code].severity,
    path: place.path,
    line: place.line,
    column: place.column,
    message,
    ...extra,
  });
}

/** Formats a position as `line:column` for messages. */
export function formatPlace(position: Pick<SourcePosition, 'line' | 'column'>): string {
  return `${position.line}:${position.column}`;
}

/** Shows one character of the source in a message: printable ones quoted, others as U+XXXX. */
export function describeChar(char: string | undefined): string {
  if (char === undefined || char === '') return 'end of input';
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) {
    return `control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return char === "'" ? `"'"` : `'${char}'`;
}

/** Quotes a key or value for a message, cut at 80 characters. */
export function quoteForMessage(text: string): string {
  const cut = text.length > 80 ? text.slice(0, 77) + '...' : text;
  return JSON.stringify(cut);
}
