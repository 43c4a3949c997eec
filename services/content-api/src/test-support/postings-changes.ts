import type { PostingsChange } from '../search/segments/word-postings.js';

/**
 * Each word's positions removed and added when the texts `before` become `after` (text `i` at
 * position `i * step`; words split on spaces): what a delta hands `patchBucketWithWords`.
 */
export function postingsChanges(
  before: readonly string[],
  after: readonly string[],
  step: number,
): Map<string, PostingsChange & { removed: number[]; added: number[] }> {
  const changes = new Map<string, { removed: number[]; added: number[] }>();
  const change = (word: string) => {
    let entry = changes.get(word);
    if (!entry) changes.set(word, (entry = { removed: [], added: [] }));
    return entry;
  };
  const words = (text: string | undefined) => new Set((text ?? '').split(' ').filter(Boolean));
  after.forEach((text, i) => {
    if (text === before[i]) return;
    for (const word of words(before[i])) change(word).removed.push(i * step);
    for (const word of words(text)) change(word).added.push(i * step);
  });
  return changes;
}
