import type { ErrorBody } from './error-body.js';

/** Error statuses with a default description; any other 4xx/5xx status needs its own. */
export const ERROR_STATUS_DESCRIPTIONS: Readonly<Record<number, string>> = Object.freeze({
  400: 'The request is not valid',
  401: 'Credentials are missing or not valid',
  403: 'The credentials do not allow this',
  404: 'Not found',
  405: 'Method not allowed',
  406: 'No acceptable representation (see the Accept header)',
  409: 'Conflicts with the current state',
  413: 'The request body is too large',
  415: 'The request body media type is not supported',
  422: 'The request is well-formed but cannot be processed',
  429: 'Too many requests; retry later',
  500: 'Unexpected server error',
  503: 'The service is not available',
});

/** One OpenAPI response object as a Fastify route `response` entry (`description` + `content`). */
export interface OpenApiErrorResponse {
  readonly description: string;
  readonly content: Readonly<Record<string, { readonly schema: Readonly<Record<string, unknown>> }>>;
}

/**
 * An error response of `body`'s shape. `extraProperties`, when given, describes members this
 * operation adds to the error body (e.g. a typed `errors` array): the schema becomes
 * `allOf: [<body>, {properties: extraProperties}]`.
 */
export function errorResponse(
  body: ErrorBody,
  description: string,
  extraProperties?: Readonly<Record<string, unknown>>,
): OpenApiErrorResponse {
  const ref = { $ref: `${body.schema.$id}#` };
  const schema = extraProperties ? { allOf: [ref, { properties: extraProperties }] } : ref;
  return { description, content: { [body.mediaType]: { schema } } };
}

/**
 * The error responses of one operation, for the `response` map of a route schema:
 * `errorResponses(PROBLEM_ERROR_BODY, {400: 'Invalid query', 404: true})`. List every status the
 * route, its hooks and the error handler really send; `true` takes the default description of
 * `ERROR_STATUS_DESCRIPTIONS`. The body refers to the shared `$id` schema that `registerOpenApi`
 * adds, so the route must live in an app where it ran.
 *
 * @throws Error for a status below 400, or `true` for a status without a default description.
 */
export function errorResponses(
  body: ErrorBody,
  statuses: Readonly<Record<number, string | true>>,
): Record<number, OpenApiErrorResponse> {
  const responses: Record<number, OpenApiErrorResponse> = {};
  for (const [key, value] of Object.entries(statuses)) {
    const status = Number(key);
    if (!Number.isInteger(status) || status < 400 || status > 599) throw new Error(`${key} is not an error status`);
    const description = value === true ? ERROR_STATUS_DESCRIPTIONS[status] : value;
    if (description === undefined) throw new Error(`No default description for status ${status}; write one`);
    responses[status] = errorResponse(body, description);
  }
  return responses;
}
