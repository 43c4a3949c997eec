/** A saved view: the title identifies it. */
export interface Bookmark {
  readonly title: string;
  readonly url: string;
}

/**
 * Checks a bookmark before it is sent, with the API's limits (title 1 to 255, url 1 to 2048
 * characters). Returns the first problem as a sentence, or undefined.
 */
export function bookmarkProblem(title: string, url: string): string | undefined {
  if (title.trim() === '') return 'Enter a title.';
  if (title.length > 255) return 'The title is longer than 255 characters.';
  if (url.trim() === '') return 'Enter a URL.';
  if (url.length > 2048) return 'The URL is longer than 2048 characters.';
  return undefined;
}

/** True for a same-origin path the console can follow itself (`/nodes/...`), not `//host` or a scheme. */
export function isConsolePath(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}
