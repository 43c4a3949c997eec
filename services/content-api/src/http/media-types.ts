/** The one media type the API answers with and accepts in `Accept` (version 1). */
export const CONTENT_MEDIA_TYPE = 'application/vnd.vendor.content.v1+json';

/** Header carrying the end user's id. */
export const REQUISITIONER_HEADER = 'x-svc-requisitioner-id';

/** The pattern a requisitioner id must match (1 to 128 characters). */
export const REQUISITIONER_PATTERN = /^[a-zA-Z0-9.~_-]{1,128}$/;

/** `Cache-Control` of search and detail replies. */
export const DEFAULT_CACHE_CONTROL = 'private, max-age=300';

/** `Cache-Control` of replies to a request naming the current content version: it never changes. */
export const IMMUTABLE_CACHE_CONTROL = 'private, max-age=31536000, immutable';

/**
 * True when `Accept` names exactly the API's media type: one value (parameters such as `q=` or
 * `charset` allowed), no wildcards, no alternatives. Case of type and subtype is ignored (RFC 9110).
 */
export function acceptsContentMediaType(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const ranges = accept
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  if (ranges.length !== 1) return false;
  const [type = ''] = (ranges[0] as string).split(';');
  return type.trim().toLowerCase() === CONTENT_MEDIA_TYPE;
}
