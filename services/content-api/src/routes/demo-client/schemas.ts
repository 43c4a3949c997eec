import { errorResponses, PROBLEM_ERROR_BODY, withResponseHeaders } from '@triad/service-kit';

const noStore = { 'Cache-Control': { type: 'string', enum: ['no-store'], description: 'never cache' } } as const;

/** `GET /oauth/demo-client`. */
export const demoClientSchema = {
  tags: ['identity'],
  operationId: 'getDemoClient',
  summary: "A local demo run's generated read client, for the console's sign-in form",
  description:
    'Served with the built-in identity. Answers the read client only for a demo run (`TRIAD_DEMO`) whose ' +
    'read client was generated (no `TRIAD_OAUTH_CLIENT_ID`/`_SECRET`), which listens on a loopback address, ' +
    'to a request whose `Host` is a loopback name or address; 204 otherwise. Never the admin client.',
  security: [],
  response: {
    200: withResponseHeaders(
      {
        description: 'The read client (read scope only)',
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
      noStore,
    ),
    204: withResponseHeaders({ description: 'No demo client here' }, noStore),
    ...errorResponses(PROBLEM_ERROR_BODY, { 500: true }),
  },
} as const;
