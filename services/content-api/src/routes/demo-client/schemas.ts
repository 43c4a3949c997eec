import { errorResponses, PROBLEM_ERROR_BODY, withResponseHeaders } from '@triad/service-kit';

/** `GET /oauth/demo-client`. */
export const demoClientSchema = {
  tags: ['identity'],
  operationId: 'getDemoClient',
  summary: "The demo run's generated read client, for the console's sign-in form",
  description:
    'Served only by a demo run (`TRIAD_DEMO`) of the built-in identity whose read client was generated ' +
    '(no `TRIAD_OAUTH_CLIENT_ID`/`_SECRET`) and which listens on a loopback address; answered only to a ' +
    'request whose `Host` is a loopback name or address. Never the admin client. Replies `Cache-Control: no-store`.',
  security: [],
  response: {
    200: withResponseHeaders(
      {
        description: 'The read client (scope of the read API only)',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['clientId', 'clientSecret'],
              properties: { clientId: { type: 'string' }, clientSecret: { type: 'string' } },
            },
          },
        },
      },
      { 'Cache-Control': { type: 'string', enum: ['no-store'], description: 'never cache' } },
    ),
    ...errorResponses(PROBLEM_ERROR_BODY, { 404: 'Not a loopback request', 500: true }),
  },
} as const;
