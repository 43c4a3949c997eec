import type { SourceFormat } from '../loading/loaded-document.js';

/**
 * Where the token that starts at `start` ends (exclusive offset), so that a problem reported at a
 * value's or key's first character can be underlined as a whole: a quoted string up to its closing
 * quote, a number or word up to the next delimiter, a YAML plain scalar up to `: `, ` #` or the line
 * end. An object or array is one character (its bracket): underlining a whole block hides the rest.
 * Never returns less than `start + 1` unless `start` is at the end of the text.
 */
export function tokenEnd(text: string, start: number, format: SourceFormat): number {
  if (start >= text.length) return text.length;
  const first = text[start];
  if (first === '"' || (first === "'" && format === 'yaml')) return quotedEnd(text, start, first, format);
  if (first === '{' || first === '[' || first === '|' || first === '>') return start + 1;
  let end = start;
  if (format === 'json') {
    while (end < text.length && !JSON_DELIMITERS.has(text.charAt(end))) end++;
  } else {
    const lineEnd = lineEndOf(text, start);
    while (end < lineEnd) {
      const c = text.charAt(end);
      const next = text[end + 1];
      if (c === ':' && (next === undefined || next === ' ' || next === '\t' || end + 1 >= lineEnd)) break;
      if ((c === ' ' || c === '\t') && next === '#') break;
      end++;
    }
    while (end > start && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  }
  return Math.max(end, start + 1);
}

const JSON_DELIMITERS: ReadonlySet<string> = new Set([',', '}', ']', ':', ' ', '\t', '\n', '\r']);

function quotedEnd(text: string, start: number, quote: string, format: SourceFormat): number {
  // A JSON string ends at the line; a YAML double-quoted one may fold over several lines.
  const end = quote === '"' && format === 'yaml' ? text.length : lineEndOf(text, start);
  for (let i = start + 1; i < end; i++) {
    const c = text[i];
    if (c === '\\' && quote === '"') i++;
    else if (c === quote) {
      if (quote === "'" && text[i + 1] === "'") i++;
      else return i + 1;
    }
  }
  return end;
}

/** Offset of the line break ending the line that holds `offset` (or the text's length). */
export function lineEndOf(text: string, offset: number): number {
  const lf = text.indexOf('\n', offset);
  const end = lf < 0 ? text.length : lf;
  return end > offset && text[end - 1] === '\r' ? end - 1 : end;
}
