/**
 * Schema pieces several route areas share: the ids in paths and the `{error: reason}` replies
 * every failure sends (see `http/api-error-handler.ts`).
 */
import {
  errorResponse,
  errorResponses as kitErrorResponses,
  REASON_ERROR_BODY,
  withResponseHeaders,
} from '@triad/service-kit';
import { AUTH_REALM } from '../http/api-error-handler.js';

/** A node or node family id as a path segment. */
export const idSchema = { type: 'string', minLength: 1, maxLength: 64 } as const;

/** `{node_id}` in a path. */
export const nodeParams = { type: 'object', required: ['node_id'], properties: { node_id: idSchema } } as const;

/** `{node_family_id}` in a path. */
export const familyParams = {
  type: 'object',
  required: ['node_family_id'],
  properties: { node_family_id: idSchema },
} as const;

/** What each failure status means on this API. */
const ERROR_DESCRIPTIONS = {
  400: 'Refused input, or the caller may not do this (invalid_request, not_admin, forbidden, ...)',
  401: 'Authentication is on and the credentials are missing or wrong (WWW-Authenticate: Basic)',
  404: 'No such node, node family, plugin or process (node_not_found, node_family_not_found, plugin_not_found, ...)',
  409: 'The node is not UP (node_not_up)',
  413: 'The body exceeds the size limit (body_too_large)',
  415: 'The body is not application/json (unsupported_media_type)',
  429: 'Too many calls at once (explorer_busy); retry when the running ones have answered',
  500: 'Unexpected error (internal)',
  502: 'The node answered with an error (explorer_failed)',
  503: 'The node cannot be reached from this instance now (node_unreachable)',
  504: 'The node did not answer in time (node_timeout)',
} as const;

/** A failure status this API answers. */
export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

/** The failures of a route with a JSON body besides the usual ones: 413 and 415. */
export const BODY_ERRORS = [413, 415] as const;

/**
 * Response schemas of the failures a route sends, each `{error}` as JSON. Every authenticated
 * route may answer 400, 401 and 500; pass the others it really sends (404 for a missing resource,
 * `...BODY_ERRORS` for routes with a body).
 */
export function errorResponses(...extra: ErrorStatus[]) {
  const statuses: Record<number, string> = {};
  for (const status of [400, 401, ...extra, 500] as const) statuses[status] = ERROR_DESCRIPTIONS[status];
  const responses = kitErrorResponses(REASON_ERROR_BODY, statuses);
  return {
    ...responses,
    401: withResponseHeaders(errorResponse(REASON_ERROR_BODY, ERROR_DESCRIPTIONS[401]), {
      'WWW-Authenticate': { type: 'string', description: `Basic realm="${AUTH_REALM}", charset="UTF-8"` },
    }),
  };
}
