import type { LoadedDocument, SourceFormat } from '../loading/loaded-document.js';
import { fromJsonPointer, type Problem } from '../problem.js';
import { tokenEnd } from './token-end.js';

/** A span of the text as UTF-16 offsets, `end` exclusive. */
export interface OffsetRange {
  readonly start: number;
  readonly end: number;
}

/**
 * The span a problem is about. Problems carry only where they start (line and column of the value,
 * of the key for key problems, or of the offending part inside an expression string); the end is
 * found here:
 *
 * - inside an expression, the text (`found`, which the expression checks set to exactly the
 *   offending part) when the source has it at that place, else the identifier there;
 * - at an object or array, the key that names it (underlining a whole block would hide the rest);
 * - anywhere else, the token that starts there (quoted string, number, word, YAML plain scalar).
 *
 * `start` is the problem's own position converted by the caller (`offsetAt`).
 */
export function problemRange(
  problem: Problem,
  start: number,
  text: string,
  format: SourceFormat,
  document: LoadedDocument | undefined,
): OffsetRange {
  if (isInsideString(problem.code)) {
    const found = problem.found;
    if (typeof found === 'string' && found.length > 0 && !found.endsWith('…') && text.startsWith(found, start))
      return { start, end: start + found.length };
    let end = start;
    while (end < text.length && IDENTIFIER.test(text.charAt(end))) end++;
    return { start, end: Math.max(end, Math.min(start + 1, text.length)) };
  }
  const first = text[start];
  if ((first === '{' || first === '[') && document !== undefined && problem.path !== '') {
    const key = keyOffset(document, problem.path);
    if (key !== undefined && key !== start) return { start: key, end: tokenEnd(text, key, format) };
  }
  return { start, end: tokenEnd(text, start, format) };
}

const IDENTIFIER = /[\w#&$]/;

/** Expression issues point inside the expression string, at the offending part. */
function isInsideString(code: string): boolean {
  return code.startsWith('DT_ERR_EXPR_') || code.startsWith('DT_WARN_EXPR_');
}

function keyOffset(document: LoadedDocument, pointer: string): number | undefined {
  try {
    const path = fromJsonPointer(pointer);
    const tail = path[path.length - 1];
    if (typeof tail === 'string' && /^\d+$/.test(tail)) return undefined;
    return document.positionOf(path, 'key').offset;
  } catch {
    return undefined;
  }
}
