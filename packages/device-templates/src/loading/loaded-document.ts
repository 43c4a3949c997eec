import type { DocumentPath } from '../problem.js';

/** A place in the source text. `line` and `column` are 1-based; `offset` counts UTF-16 code units. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

export type SourceFormat = 'json' | 'yaml';

/**
 * A parsed template together with its source text, able to tell where any value came from.
 *
 * `positionOf` must be cheap for a handful of lookups on a valid document and must never
 * throw: for a path that does not exist it returns the position of the deepest existing
 * ancestor (the place where a missing key would have to be written).
 */
export interface LoadedDocument {
  /** The parsed value (plain JSON data: objects, arrays, strings, numbers, booleans, null). */
  readonly value: unknown;
  readonly format: SourceFormat;
  /** The decoded source text (BOM removed). */
  readonly text: string;
  /** File name as given by the caller. */
  readonly file: string;
  /** Where the value (or, with `'key'`, the key naming it) at `path` starts. */
  positionOf(path: DocumentPath, which?: 'value' | 'key'): SourcePosition;
}
