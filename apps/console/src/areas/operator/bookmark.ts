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

/** Any origin serves to resolve a path against: a clean path never leaves the one it is resolved on. */
const PROBE_ORIGIN = 'https://console.invalid';
/** Percent-encoded dots, slashes, backslashes and control characters, which a clean path never needs. */
const ENCODED_TRICK = /%(?:2e|2f|5c|[01][0-9a-f]|7f)/i;

/**
 * True for a clean same-origin path the console can follow itself (`/nodes/...`): it starts with
 * exactly one `/`, resolves (as the browser would, `new URL(url, origin)`) to the same origin, and
 * has no backslash (browsers read `/\host` as `//host`), no control character or blank, no `.` or
 * `..` segment, and none of those percent-encoded. Anything else is shown as text, never a link.
 */
export function isConsolePath(url: string): boolean {
  if (!url.startsWith('/') || url.startsWith('//') || url.includes('\\') || ENCODED_TRICK.test(url)) return false;
  for (const char of url) {
    const code = char.codePointAt(0) ?? 0;
    // C0, blank, DEL, C1 and the Unicode blanks and format characters a browser may drop or read as a separator.
    if (code <= 0x20 || (code >= 0x7f && code <= 0xa0) || /\s|\p{Cf}/u.test(char)) return false;
  }
  const path = url.split(/[?#]/, 1)[0] ?? '';
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) return false;
  let resolved: URL;
  try {
    resolved = new URL(url, PROBE_ORIGIN);
  } catch {
    return false;
  }
  return resolved.origin === PROBE_ORIGIN;
}
