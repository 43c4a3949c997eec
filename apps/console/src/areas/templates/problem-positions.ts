/**
 * Validator problems placed in an editor document: 1-based line and column (0 when unknown) to a
 * character range. The range covers the token at the position so the underline is visible.
 */

/** The parts of CodeMirror's `Text` this module reads. */
export interface LineText {
  readonly lines: number;
  line(n: number): { readonly from: number; readonly to: number; readonly text: string };
}

/** Offset of a 1-based line and column, clamped into the document (unknown parts: its start). */
export function offsetOf(doc: LineText, line: number, column: number): number {
  const target = doc.line(Math.min(Math.max(line, 1), doc.lines));
  return target.from + Math.min(Math.max(column - 1, 0), target.text.length);
}

/** The range to underline for a problem: the token at its position, or the rest of its line. */
export function problemRange(doc: LineText, line: number, column: number): { from: number; to: number } {
  const from = offsetOf(doc, line, column);
  const target = doc.line(Math.min(Math.max(line, 1), doc.lines));
  const rest = target.text.slice(from - target.from);
  const token = /^(?:"(?:[^"\\]|\\.)*"|'[^']*'|[^\s,:{}[\]]+)/.exec(rest)?.[0] ?? '';
  const to = token.length > 0 ? from + token.length : target.to;
  return { from, to: Math.max(to, from) };
}
