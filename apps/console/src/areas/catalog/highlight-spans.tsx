import type { Hit } from './catalog-wire.js';

/** One matched field of a hit (`highlight=true`): UTF-16 `[start, end)` offsets into its text, and a snippet. */
export interface HighlightedField {
  readonly spans?: readonly (readonly [number, number])[];
  /** Part of the text around the matches, each match inside `<mark>`…`</mark>`. */
  readonly snippet?: string;
}

/** `highlights` of a hit, when the search asked for them: each part only when it matched. */
export interface Highlights {
  readonly title?: HighlightedField;
  readonly description?: HighlightedField;
}

/** A hit as the page reads it: `highlights` comes only from servers that highlight. */
export type HighlightedHit = Hit & { readonly highlights?: Highlights };

/** A piece of text, marked when it is a match. */
export interface TextPart {
  readonly text: string;
  readonly mark: boolean;
}

/**
 * `text` cut at `spans` (UTF-16 offsets, in any order, maybe overlapping or beyond the text): the
 * matched parts marked, the rest not, together exactly `text`. Spans that are empty, reversed or
 * outside the text are ignored, overlapping ones joined.
 */
export function splitAtSpans(text: string, spans: readonly (readonly [number, number])[] | undefined): TextPart[] {
  const valid = (spans ?? [])
    .map(([start, end]) => [Math.max(0, Math.trunc(start)), Math.min(text.length, Math.trunc(end))] as const)
    .filter(([start, end]) => Number.isFinite(start) && Number.isFinite(end) && start < end)
    .sort((a, b) => a[0] - b[0]);
  const parts: TextPart[] = [];
  let at = 0;
  for (const [start, end] of valid) {
    if (end <= at) continue;
    const from = Math.max(start, at);
    if (from > at) parts.push({ text: text.slice(at, from), mark: false });
    const last = parts[parts.length - 1];
    if (last?.mark && from === at) parts[parts.length - 1] = { text: last.text + text.slice(from, end), mark: true };
    else parts.push({ text: text.slice(from, end), mark: true });
    at = end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), mark: false });
  return parts;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" };

/**
 * A snippet's text cut at its `<mark>`…`</mark>` tags, read as text (never as HTML): any other
 * markup stays visible as typed, the five entities of escaped text are read back.
 */
export function splitSnippet(snippet: string): TextPart[] {
  const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#39|apos);/g, (_, name: string) => ENTITIES[name]!);
  const parts: TextPart[] = [];
  let mark = false;
  for (const piece of snippet.split(/(<\/?mark>)/)) {
    if (piece === '<mark>') mark = true;
    else if (piece === '</mark>') mark = false;
    else if (piece !== '') parts.push({ text: decode(piece), mark });
  }
  return parts;
}

/** Text parts as text nodes and `<mark>` elements. */
export function Marked({ parts }: { readonly parts: readonly TextPart[] }) {
  return <>{parts.map((part, i) => (part.mark ? <mark key={i}>{part.text}</mark> : part.text))}</>;
}
