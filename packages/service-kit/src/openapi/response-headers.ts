/** A response header as a route `response` entry lists it: a JSON schema with a description. */
export interface OpenApiResponseHeader {
  readonly type: 'string' | 'integer';
  readonly description: string;
  readonly [keyword: string]: unknown;
}

/**
 * `response` with the headers the operation sets on it (`Location`, `ETag`, `Cache-Control`,
 * `WWW-Authenticate` ...), for a route's `response` map; @fastify/swagger turns them into the
 * response's OpenAPI `headers`. Names are case-insensitive on the wire; write them as sent.
 */
export function withResponseHeaders<R extends object>(
  response: R,
  headers: Readonly<Record<string, OpenApiResponseHeader>>,
): R & { readonly headers: Readonly<Record<string, OpenApiResponseHeader>> } {
  return { ...response, headers };
}
