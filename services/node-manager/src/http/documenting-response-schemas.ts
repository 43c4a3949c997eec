import type { FastifyInstance } from 'fastify';

/**
 * Makes the route `response` schemas of `app`'s context documentation only (OpenAPI): replies are
 * serialised with `JSON.stringify`, so the presenters alone decide what the client sees (a schema
 * cannot drop or coerce a field) and the wire stays what the spec shows.
 */
export function useDocumentingResponseSchemas(app: FastifyInstance): void {
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}
