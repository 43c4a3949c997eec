import type { MatchedWords } from './search-query.js';

/** The matched words of one text of a hit: where they are and a short excerpt with them marked. */
export interface TextHighlight {
  /** `[start, end)` UTF-16 offsets into the whole text, ascending, at most `MAX_HIGHLIGHT_SPANS`. */
  readonly spans: readonly (readonly [start: number, end: number])[];
  /**
   * At most about `SNIPPET_LENGTH` characters of the text around the first span, HTML-escaped, the
   * matched words wrapped in `<mark>`…`</mark>` (the only markup), `…` where the text was cut.
   */
  readonly snippet: string;
}

/** Characters of a text looked at for matched words; beyond them nothing is marked. */
export const MAX_HIGHLIGHT_TEXT = 10_000;
/** Most spans one text reports. */
export const MAX_HIGHLIGHT_SPANS = 64;
/** Length a snippet aims at (a cut falls on a word boundary, so it may be a few characters shorter). */
export const SNIPPET_LENGTH = 160;
/** Characters of the snippet before the first match, when the text is cut. */
const SNIPPET_LEAD = 40;

/**
 * The spans of the words of `text` that are among the `matched` words (compared as `searchWords`
 * gives them: lower-cased, accents removed) and a snippet, or undefined when none is. Pure; looks
 * at the first `MAX_HIGHLIGHT_TEXT` characters and reports at most `MAX_HIGHLIGHT_SPANS` spans.
 */
export function highlightText(text: string, matched: MatchedWords): TextHighlight | undefined {
  const spans: [number, number][] = [];
  const scanned = text.length > MAX_HIGHLIGHT_TEXT ? text.slice(0, MAX_HIGHLIGHT_TEXT) : text;
  for (const { start, end, words } of wordsWithOffsets(scanned)) {
    if (words.some((w) => matched.words.has(w) || matched.prefixes.some((p) => w.startsWith(p)))) {
      spans.push([start, end]);
      if (spans.length === MAX_HIGHLIGHT_SPANS) break;
    }
  }
  if (spans.length === 0) return undefined;
  return { spans, snippet: snippet(text, spans) };
}

/**
 * The runs of a text that `searchWords` turns into words, with their offsets: a run of ASCII
 * letters and digits is one word; a run of other letters, digits and marks (`Größe`, `Kühl`) is
 * normalised as `searchWords` does (decomposed, marks dropped, lower-cased), which may give more
 * than one word for the run.
 */
function* wordsWithOffsets(text: string): Generator<{ start: number; end: number; words: string[] }> {
  for (const match of text.matchAll(/[\p{L}\p{N}\p{M}]+/gu)) {
    const run = match[0];
    const start = match.index;
    const words = /^[A-Za-z0-9]+$/.test(run)
      ? [run.toLowerCase()]
      : (run
          .normalize('NFD')
          .replace(/\p{M}+/gu, '')
          .toLowerCase()
          .match(/[\p{L}\p{N}]+/gu) ?? []);
    if (words.length > 0) yield { start, end: start + run.length, words };
  }
}

/** The excerpt of `text` around its first span, escaped, with every span inside it marked. */
function snippet(text: string, spans: readonly (readonly [number, number])[]): string {
  const [first] = spans;
  let from = 0;
  let to = text.length;
  if (text.length > SNIPPET_LENGTH && first) {
    from = Math.max(0, Math.min(first[0] - SNIPPET_LEAD, text.length - SNIPPET_LENGTH));
    // Start at a word: after the first space past the cut (unless that passes the match).
    if (from > 0) {
      const space = text.indexOf(' ', from);
      if (space !== -1 && space < first[0]) from = space + 1;
    }
    to = Math.min(text.length, from + SNIPPET_LENGTH);
    if (to < text.length) {
      const space = text.lastIndexOf(' ', to);
      if (space > first[1]) to = space;
    }
  }
  let out = from > 0 ? '…' : '';
  let at = from;
  for (const [start, end] of spans) {
    if (end <= from) continue;
    if (start >= to) break;
    const s = Math.max(start, from);
    const e = Math.min(end, to);
    out += `${escapeHtml(text.slice(at, s))}<mark>${escapeHtml(text.slice(s, e))}</mark>`;
    at = e;
  }
  out += escapeHtml(text.slice(at, to));
  if (to < text.length) out += '…';
  return out;
}

/** Text safe inside HTML elements and attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
