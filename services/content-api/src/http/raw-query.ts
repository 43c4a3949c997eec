import { isObject } from '@triad/common';
import type { RawQuery } from '../search/parse-search-query.js';

/**
 * A request's query string as Fastify's parser leaves it (each parameter a string, an array of
 * strings when repeated), typed for the handlers' own checks: the content API's route schemas
 * are documentation only (`useSchemasAsDocumentation`), so Fastify does not type or check it.
 *
 * @throws Error when `query` is anything else (another query string parser).
 */
export function rawQuery(query: unknown): RawQuery {
  if (isRawQuery(query)) return query;
  throw new Error('the query string is not parsed into strings and arrays of strings');
}

function isRawQuery(query: unknown): query is RawQuery {
  return isObject(query) && Object.values(query).every(isParameter);
}

function isParameter(value: unknown): value is string | readonly string[] | undefined {
  return (
    value === undefined ||
    typeof value === 'string' ||
    (Array.isArray(value) && value.every((item) => typeof item === 'string'))
  );
}
