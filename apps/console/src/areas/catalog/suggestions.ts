import type { SuggestReply, Suggestion } from './catalog-wire.js';

/** One choice of the search box's list: a completion or a correction of the last word. */
export interface SuggestionOption extends Suggestion {
  readonly kind: 'completion' | 'correction';
}

/** Letters of `text` as the search compares them: lower case, accents removed. */
function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The last word of `text` (a run of letters and digits), folded; `''` without one. */
export function lastWord(text: string): string {
  const words = folded(text).match(/[\p{L}\p{N}]+/gu);
  return words?.[words.length - 1] ?? '';
}

/** The list the box shows: completions, then corrections not already there, each text once. */
export function suggestionOptions(reply: SuggestReply): SuggestionOption[] {
  const seen = new Set<string>();
  const options: SuggestionOption[] = [];
  for (const [kind, list] of [
    ['completion', reply.completions],
    ['correction', reply.corrections],
  ] as const)
    for (const suggestion of list) {
      if (seen.has(suggestion.text)) continue;
      seen.add(suggestion.text);
      options.push({ ...suggestion, kind });
    }
  return options;
}

/**
 * The correction the search's typo matching applied to `q`, as the buyer should read it: the
 * nearest correction when the last word is not itself a word of the shops (no completion equals
 * it); undefined when it is, or nothing is near.
 */
export function appliedCorrection(q: string, reply: SuggestReply): string | undefined {
  const word = lastWord(q);
  if (word === '' || reply.completions.some((c) => lastWord(c.text) === word)) return undefined;
  return reply.corrections[0]?.text;
}

/** Whether two texts of the box search the same: equal once spaces are trimmed and collapsed. */
export function sameQuery(a: string, b: string): boolean {
  const tidy = (text: string) => text.trim().replace(/\s+/g, ' ');
  return tidy(a) === tidy(b);
}
