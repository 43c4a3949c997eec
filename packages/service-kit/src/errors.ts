import { defineProblemCatalogue } from './problem/problem-catalogue.js';

/**
 * The service kit's error catalogue: problems every service can answer with, before or
 * around its own routes. Codes never change meaning; `docs/errors.md` lists them.
 */
export const kitProblems = defineProblemCatalogue({
  SVC_ERR_REQUEST_VALIDATION: { status: 400, title: 'The request does not match the route schema' },
  SVC_ERR_JSON_SYNTAX: { status: 400, title: 'The request body is not well-formed JSON' },
  SVC_ERR_JSON_TOO_DEEP: { status: 400, title: 'The JSON request body is nested too deeply' },
  SVC_ERR_JSON_FORBIDDEN_KEY: { status: 400, title: 'The JSON request body contains a forbidden key' },
  SVC_ERR_BODY_EMPTY: { status: 400, title: 'The request body is empty' },
  SVC_ERR_CONTENT_LENGTH_INVALID: { status: 400, title: 'The request body size does not match Content-Length' },
  SVC_ERR_BAD_REQUEST: { status: 400, title: 'Bad request' },
  SVC_ERR_ROUTE_NOT_FOUND: { status: 404, title: 'No such route' },
  SVC_ERR_METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  SVC_ERR_REQUEST_TIMEOUT: { status: 408, title: 'The request was not received in time' },
  SVC_ERR_BODY_TOO_LARGE: { status: 413, title: 'The request body is too large' },
  SVC_ERR_URI_TOO_LONG: { status: 414, title: 'The request URI is too long' },
  SVC_ERR_MEDIA_TYPE_UNSUPPORTED: { status: 415, title: 'The request body media type is not supported by this route' },
  SVC_ERR_HEADERS_TOO_LARGE: { status: 431, title: 'The request headers are too large' },
  SVC_ERR_INTERNAL: { status: 500, title: 'Internal server error' },
  SVC_ERR_UNAVAILABLE: { status: 503, title: 'The service is not available' },
  SVC_ERR_TOO_MANY_CONNECTIONS: { status: 503, title: 'This client holds too many connections' },
});

export type KitProblemCode = keyof typeof kitProblems.definitions;
