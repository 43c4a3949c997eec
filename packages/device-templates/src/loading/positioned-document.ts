import type { DocumentPath } from '../problem.js';
import type { LineIndex } from './line-index.js';
import type { LoadedDocument, SourceFormat, SourcePosition } from './loaded-document.js';
import { offsetInString, stringAt } from './string-offset-position.js';

/** Resolves a path to an offset in the text; may throw on malformed paths (caught by the caller). */
export type OffsetResolver = (path: DocumentPath, which: 'value' | 'key') => number;

/**
 * Assembles a `LoadedDocument` from a parsed value and a resolver of offsets. The returned
 * `positionOf` never throws: should the resolver fail, it answers with the document start.
 * `positionInString` reads the text from the string's start (see `string-offset-position.ts`)
 * and falls back to `positionOf`.
 */
export function positionedDocument(
  parsed: { readonly value: unknown; readonly format: SourceFormat; readonly text: string; readonly file: string },
  lines: LineIndex,
  resolve: OffsetResolver,
): LoadedDocument {
  const positionOf = (path: DocumentPath, which: 'value' | 'key' = 'value'): SourcePosition => {
    try {
      return lines.positionAt(resolve(Array.isArray(path) ? path : [], which === 'key' ? 'key' : 'value'));
    } catch {
      return lines.positionAt(0);
    }
  };
  const positionInString = (path: DocumentPath, offset: number): SourcePosition => {
    try {
      const segments = Array.isArray(path) ? path : [];
      const start = resolve(segments, 'value');
      const value = stringAt(parsed.value, segments);
      const at = value === undefined ? undefined : offsetInString(parsed.text, parsed.format, start, value, offset);
      return lines.positionAt(at ?? start);
    } catch {
      return positionOf(path);
    }
  };
  return Object.freeze({
    value: parsed.value,
    format: parsed.format,
    text: parsed.text,
    file: parsed.file,
    positionOf,
    positionInString,
  });
}

/** Offset of the first character that is not blank (space, tab, line break); `text.length` if none. */
export function firstNonBlank(text: string): number {
  let i = 0;
  for (; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
  }
  return i;
}
