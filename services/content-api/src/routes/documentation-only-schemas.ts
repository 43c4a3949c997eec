import type { FastifyInstance } from 'fastify';

/**
 * Makes the request schemas of routes in `app`'s scope documentation only: Fastify does not
 * validate or coerce against them. The content API's handlers and hooks check every input
 * themselves, because the spec fixes the error shapes — `invalid-query-param` problems with
 * `queryParam` and `errors[]` (TYPE / MINIMUM / MAXIMUM / UNKNOWN), and RFC 6749 errors on
 * `/oauth/token` — which Fastify's validation errors cannot produce. The schemas state the same
 * limits, read from the constants the handlers use.
 */
export function useSchemasAsDocumentation(app: FastifyInstance): void {
  app.setValidatorCompiler(() => () => true);
}
