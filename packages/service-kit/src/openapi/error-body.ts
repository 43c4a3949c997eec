import { PROBLEM_MEDIA_TYPE, problemSchema } from '../problem/problem-document.js';

/**
 * The body a service's error replies carry: its media type and its JSON schema. The schema's
 * `$id` becomes the name of the shared component in the OpenAPI document (`#/components/schemas/<$id>`),
 * so client generators make one error type per service.
 */
export interface ErrorBody {
  /** Media type of error replies, e.g. `application/problem+json`. */
  readonly mediaType: string;
  /** JSON schema with a `$id` (a component name: letters, digits, `.`, `_`, `-`). */
  readonly schema: { readonly $id: string } & Readonly<Record<string, unknown>>;
}

/**
 * RFC 9457 problem details as the service kit's `problemHandler` sends them (`application/problem+json`):
 * the body of every error of the content API and the template service. Component name `Problem`.
 */
export const PROBLEM_ERROR_BODY: ErrorBody = Object.freeze({
  mediaType: PROBLEM_MEDIA_TYPE,
  schema: Object.freeze({ ...problemSchema, $id: 'Problem', title: 'Problem' }),
});

/**
 * `{"error": "<reason>"}` (`application/json`): the error body of the node manager's `/api`.
 * Component name `ErrorReason`.
 */
export const REASON_ERROR_BODY: ErrorBody = Object.freeze({
  mediaType: 'application/json',
  schema: Object.freeze({
    $id: 'ErrorReason',
    title: 'ErrorReason',
    type: 'object',
    description: 'A failure: a short machine-readable reason such as "not_found" or "invalid_request"',
    required: ['error'],
    properties: { error: { type: 'string', description: 'the reason' } },
    additionalProperties: false,
  }),
});
