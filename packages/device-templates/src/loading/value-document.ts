import type { LoadedDocument, SourcePosition } from './loaded-document.js';

const NO_POSITION: SourcePosition = Object.freeze({ line: 0, column: 0, offset: 0 });

/**
 * Wraps a value that has no source text (a library caller's object) as a `LoadedDocument`:
 * format `json`, empty text, and a `positionOf` that answers `{line: 0, column: 0, offset: 0}`
 * for every path (and `positionInString` for every offset), which problems report as "no position".
 */
export function documentFromValue(value: unknown, file: string): LoadedDocument {
  return Object.freeze({
    value,
    file,
    format: 'json',
    text: '',
    positionOf: () => NO_POSITION,
    positionInString: () => NO_POSITION,
  });
}
