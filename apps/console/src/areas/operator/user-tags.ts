/** A user's tags as the API stores them: a list, or `'all'` (no filtering). */
export type UserTags = readonly string[] | 'all';

const TAG = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_TAGS = 100;

/** Shows tags as the Admin page's text field holds them: `all`, or the tags separated by commas. */
export function formatTags(tags: UserTags): string {
  return tags === 'all' ? 'all' : tags.join(', ');
}

/**
 * Reads the text field: `all` (any case), or tags separated by commas or spaces, repeats dropped.
 * Returns the tags, or a sentence naming the first problem (the API's limits: at most 100 tags,
 * each 1 to 64 letters, digits, `_` or `-`).
 */
export function parseTags(text: string): { readonly tags: UserTags } | { readonly problem: string } {
  const trimmed = text.trim();
  if (trimmed.toLowerCase() === 'all') return { tags: 'all' };
  const tags = [...new Set(trimmed.split(/[\s,]+/).filter((tag) => tag !== ''))];
  const bad = tags.find((tag) => !TAG.test(tag));
  if (bad !== undefined) return { problem: `The tag ${bad} is not 1 to 64 letters, digits, _ or -.` };
  if (tags.length > MAX_TAGS) return { problem: `At most ${MAX_TAGS} tags per user.` };
  return { tags };
}
