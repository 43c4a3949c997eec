import type { DocumentPath } from '../problem.js';
import type { LineIndex } from './line-index.js';
import type { LoadedDocument, SourceFormat, SourcePosition } from './loaded-document.js';

/** Resolves a path to an offset in the text; may throw on malformed paths (caught by the caller). */
export type OffsetResolver = (path: DocumentPath, which: 'value' | 'key') => number;

/**
 * Assembles a `LoadedDocument` from a parsed value and a resolver of offsets. The returned
 * `positionOf` never throws: should the resolver fail, it answers with the document start.
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
  return Object.freeze({ value: parsed.value, format: parsed.format, text: parsed.text, file: parsed.file, positionOf });
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
