import createClient, { type Client } from 'openapi-fetch';

/**
 * A typed client of one service at the page's own origin, from the service's generated `paths`
 * (`src/generated/*-api.ts`): `data` has the type the route's schema gives its success reply, so
 * no `response.json()` result is cast. A reply outside 2xx resolves with `error` (its body, parsed
 * as JSON when it is JSON, else its text) and `response`; the caller decides what it means.
 */
export function apiClient<Paths extends object>(): Client<Paths> {
  return createClient<Paths>({
    // Looked up on each call, not once when the client is made.
    fetch: (request) => globalThis.fetch(request),
    querySerializer: searchOf,
  });
}

/**
 * The query string of a request's query parameters, written as `URLSearchParams` writes it (in
 * the order given, `+` for a space); undefined and null leave a parameter out. Throws for a value
 * that is not a string, number or boolean (no route the console calls takes one).
 */
export function searchOf(query: Readonly<Record<string, unknown>>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw new TypeError(`query parameter ${name} is not a string, number or boolean`);
    }
    params.set(name, String(value));
  }
  return params.toString();
}

/**
 * The problem document's `detail`, else its `title`, of a reply body of unknown shape; undefined
 * when it has neither as a string (not JSON, empty, or another shape).
 */
export function problemMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const detail: unknown = Reflect.get(body, 'detail');
  const title: unknown = Reflect.get(body, 'title');
  return typeof detail === 'string' ? detail : typeof title === 'string' ? title : undefined;
}
