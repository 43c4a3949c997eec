import type { SourceFormat } from '../loading/loaded-document.js';
import { SUBSTITUTION_VARIABLES } from '../semantics/check-substitution-variables.js';
import type { OffsetRange } from './problem-range.js';

/** One replacement of the text: `range` becomes `newText`. */
export interface OffsetEdit {
  readonly range: OffsetRange;
  readonly newText: string;
}

/**
 * The edit that applies a problem's `suggestion` to the problem's span, when the suggestion is a
 * plain replacement: a key, an enum value, an identifier, a unit, a quoted literal, or a
 * `/{NAME}/` variable (which replaces the misspelt placeholder inside the string). Suggestions
 * that describe an action (`remove toBest`, `toBest: true`) give undefined.
 */
export function suggestionEdit(
  text: string,
  range: OffsetRange,
  suggestion: string,
  format: SourceFormat,
): OffsetEdit | undefined {
  const token = text.slice(range.start, range.end);
  const quoted = /^(["']).*\1$/s.test(token) && token.length >= 2;
  if (/^\/\{\w+\}\/$/.test(suggestion)) return placeholderEdit(token, range, suggestion);
  if (suggestion.startsWith('"')) return { range, newText: suggestion };
  if (/[\s:]/.test(suggestion)) return undefined;
  if (!quoted) return { range, newText: suggestion };
  const inner = { start: range.start + 1, end: range.end - 1 };
  const escaped = token.startsWith("'")
    ? suggestion.replace(/'/g, format === 'yaml' ? "''" : "\\'")
    : JSON.stringify(suggestion).slice(1, -1);
  return { range: inner, newText: escaped };
}

const KNOWN: ReadonlySet<string> = new Set(SUBSTITUTION_VARIABLES);

function placeholderEdit(token: string, range: OffsetRange, suggestion: string): OffsetEdit | undefined {
  const patterns = [
    /\/\{([^{}]*)\}\//g,
    /\$?\/?\{\s*([A-Za-z_][\w.-]*)\s*\}\/?/g,
    /(?<![\w{])([A-Za-z_]\w*)(?![\w}])/g,
  ];
  for (const pattern of patterns) {
    for (const match of token.matchAll(pattern)) {
      const name = match[1] ?? '';
      const wellFormed = pattern === patterns[0] && KNOWN.has(name);
      if (wellFormed || (pattern === patterns[2] && !KNOWN.has(name))) continue;
      const start = range.start + match.index;
      return { range: { start, end: start + match[0].length }, newText: suggestion };
    }
  }
  return undefined;
}
