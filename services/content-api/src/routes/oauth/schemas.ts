import { errorResponse, errorResponses, PROBLEM_ERROR_BODY, withResponseHeaders } from '@triad/service-kit';

/** Largest form body `POST /oauth/token` reads, bytes. */
export const TOKEN_FORM_BODY_LIMIT = 8192;

const tokenRequest = {
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: { type: 'string', enum: ['client_credentials'] },
    client_id: { type: 'string', description: 'unless sent with HTTP Basic' },
    client_secret: { type: 'string', description: 'unless sent with HTTP Basic' },
    scope: { type: 'string', description: 'space-separated; only the API scope can be granted' },
  },
} as const;

const oauthError = {
  description: 'RFC 6749 §5.2 error',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['error', 'error_description'],
        properties: {
          error: {
            type: 'string',
            enum: ['invalid_request', 'unsupported_grant_type', 'invalid_client', 'invalid_scope'],
          },
          error_description: { type: 'string' },
        },
      },
    },
  },
} as const;

const noStore = { type: 'string', enum: ['no-store'], description: 'never cache' } as const;

/** `POST /oauth/token`. */
export const tokenSchema = {
  tags: ['identity'],
  operationId: 'issueToken',
  summary: 'Issue an access token (OAuth 2 client credentials grant)',
  description:
    'Served only when the built-in identity is in use. The client authenticates with HTTP Basic ' +
    '(RFC 6749 §2.3.1) or with client_id and client_secret in the body. Replies `Cache-Control: no-store`.',
  security: [],
  body: {
    content: {
      'application/x-www-form-urlencoded': { schema: tokenRequest },
      'application/json': { schema: tokenRequest },
    },
  },
  response: {
    200: withResponseHeaders(
      {
        description: 'The token',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['access_token', 'token_type', 'expires_in', 'scope'],
              properties: {
                access_token: { type: 'string', description: 'a signed JWT' },
                token_type: { type: 'string', enum: ['Bearer'] },
                expires_in: { type: 'integer', description: 'seconds' },
                scope: { type: 'string' },
              },
            },
          },
        },
      },
      { 'Cache-Control': noStore },
    ),
    400: withResponseHeaders(
      {
        description:
          'invalid_request, unsupported_grant_type or invalid_scope (OAuth error); a body that is not ' +
          'well-formed (problem)',
        content: {
          ...oauthError.content,
          ...errorResponse(PROBLEM_ERROR_BODY, 'malformed body').content,
        },
      },
      { 'Cache-Control': noStore },
    ),
    401: withResponseHeaders(
      { ...oauthError, description: 'invalid_client: unknown client or wrong secret' },
      {
        'Cache-Control': noStore,
        'WWW-Authenticate': { type: 'string', description: 'Basic realm="content-api", when the client used Basic' },
      },
    ),
    ...errorResponses(PROBLEM_ERROR_BODY, {
      413: `The body is larger than ${TOKEN_FORM_BODY_LIMIT} bytes (form) or 1 MiB (JSON)`,
      415: 'The body is neither a form nor JSON',
      429:
        'CONTENT_ERR_TOKEN_THROTTLED: too many wrong secrets for the client id or from the address; ' +
        '`Retry-After` says when to try again',
      500: true,
    }),
  },
} as const;

/** `GET /.well-known/jwks.json`. */
export const jwksSchema = {
  tags: ['identity'],
  operationId: 'getJwks',
  summary: 'The public key that verifies access tokens (JWKS)',
  description: 'Served only when the built-in identity is in use. Replies `Cache-Control: public, max-age=300`.',
  security: [],
  response: {
    200: withResponseHeaders(
      {
        description: 'JSON Web Key Set (RFC 7517)',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['keys'],
              properties: { keys: { type: 'array', items: { type: 'object', additionalProperties: true } } },
            },
          },
        },
      },
      { 'Cache-Control': { type: 'string', enum: ['public, max-age=300'], description: 'cacheable for 5 minutes' } },
    ),
    ...errorResponses(PROBLEM_ERROR_BODY, { 500: true }),
  },
} as const;
