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
  /**
   * Where the character at UTF-16 `offset` of the string value at `path` is written: what a
   * problem found inside a string (an expression) points at. Escapes are decoded, so the column
   * is the written character's (`\"` and `\u00e9` count as one character of the value, two and
   * six of the text). `offset` equal to the string's length points just after its last
   * character; offsets outside the string are clamped into it.
   *
   * JSON strings map exactly. YAML plain, single-quoted and double-quoted scalars map exactly,
   * on one line or folded over several (a line break folded into a space maps to the break);
   * block scalars (`|`, `>`) map line by line. Where the written text cannot be matched to the
   * value unit by unit (a block scalar with an indentation digit, a value given by an alias, a
   * path that is not a string), the answer is `positionOf(path)`: the value's start.
   *
   * Never throws. Optional so that documents built by hand (test doubles, callers' own
   * implementations) stay valid; callers fall back to `positionOf(path)` when it is absent.
   */
  positionInString?(path: DocumentPath, offset: number): SourcePosition;
}
