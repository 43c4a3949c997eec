import { invalidQueryParam } from '../errors.js';
import { parseFilter } from './parse-filter.js';
import {
  FACET_NAMES,
  MATCHINGS,
  MAX_QUERY_WORDS,
  type Matching,
  type FacetName,
  SORT_FIELDS,
  searchWords,
  type SearchQuery,
  type SortField,
  type SortKey,
} from './search-query.js';

/** Raw query string members as Fastify parses them (repeated keys become arrays). */
export type RawQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

export const SEARCH_LIMIT = { default: 20, maximum: 1000 } as const;
export const SEARCH_OFFSET = { default: 0, maximum: 8000 } as const;
/** Longest `q`, characters. */
export const MAX_Q_LENGTH = 1000;
/** Most sort keys. */
export const MAX_SORT_KEYS = 5;

/** A parsed search request: what the backend is asked plus the request's own `hash`. */
export interface ParsedSearch {
  readonly query: SearchQuery;
  readonly q?: string;
  readonly fq?: string;
  readonly hash?: string;
  /** Only articles priced in this currency (see `scopeToCurrency`). */
  readonly currency?: string;
  /** The facets the request named with `facet` (absent: every facet), for links that repeat it. */
  readonly facets?: readonly FacetName[];
  /** `matching` as the request gave it, for links that repeat it. */
  readonly matching?: Matching;
  /** `highlight=true`: each hit carries the matched spans of its texts (`highlights`). */
  readonly highlight?: true;
}

/**
 * Validates the query parameters of `GET /api/articles` (spec limits: `limit` 0..1000 default 20,
 * `offset` 0..8000 default 0, `q` at most 1000 characters and 32 words, `businessShopId` never
 * empty, `currency` three capital letters, `facet` facet names, `matching` `default` or `exact`,
 * `highlight` `true` or `false`)
 * and builds the backend query with the facets `facet` names (every facet without it) and default
 * matching unless `matching=exact`.
 * Unknown parameters are ignored.
 *
 * @throws ProblemError 400 invalid-query-param naming the first invalid parameter.
 */
export function parseSearchQuery(raw: RawQuery): ParsedSearch {
  const limit = boundedInteger(raw, 'limit', SEARCH_LIMIT);
  const offset = boundedInteger(raw, 'offset', SEARCH_OFFSET);
  const q = single(raw, 'q');
  if (q !== undefined && q.length > MAX_Q_LENGTH) {
    throw invalidQueryParam('q', [
      { path: '#/q', code: 'MAXIMUM', limit: MAX_Q_LENGTH, description: `longer than ${MAX_Q_LENGTH} characters` },
    ]);
  }
  const words = q === undefined ? [] : searchWords(q);
  if (words.length > MAX_QUERY_WORDS) {
    throw invalidQueryParam('q', [
      {
        path: '#/q',
        code: 'MAXIMUM',
        limit: MAX_QUERY_WORDS,
        description: `has ${words.length} words; at most ${MAX_QUERY_WORDS} are searched, shorten the text`,
      },
    ]);
  }
  const fq = single(raw, 'fq');
  const sortText = single(raw, 'sort');
  const hash = single(raw, 'hash');
  const currency = single(raw, 'currency');
  if (currency !== undefined && !/^[A-Z]{3}$/.test(currency))
    throw invalidQueryParam('currency', [
      { path: '#/currency', code: 'TYPE', description: 'must be an ISO 4217 code of three capital letters' },
    ]);
  const shopIds = many(raw, 'businessShopId');
  const facetParameter = many(raw, 'facet');
  const facets = parseFacets(facetParameter);
  const matching = single(raw, 'matching');
  if (matching !== undefined && !(MATCHINGS as readonly string[]).includes(matching))
    throw invalidQueryParam('matching', [
      { path: '#/matching', code: 'UNKNOWN', description: `must be one of ${MATCHINGS.join(', ')}` },
    ]);
  const highlight = single(raw, 'highlight');
  if (highlight !== undefined && highlight !== 'true' && highlight !== 'false')
    throw invalidQueryParam('highlight', [{ path: '#/highlight', code: 'TYPE', description: 'must be true or false' }]);
  return {
    query: {
      words,
      ...(fq !== undefined ? { filter: parseFilter(fq) } : {}),
      shopIds,
      sort: sortText === undefined ? [] : parseSort(sortText),
      limit,
      offset,
      facets,
      matching: (matching ?? 'default') as Matching,
    },
    ...(q !== undefined ? { q } : {}),
    ...(fq !== undefined ? { fq } : {}),
    ...(hash !== undefined ? { hash } : {}),
    ...(currency !== undefined ? { currency } : {}),
    ...(facetParameter.length > 0 ? { facets } : {}),
    ...(matching !== undefined ? { matching: matching as Matching } : {}),
    ...(highlight === 'true' ? { highlight: true as const } : {}),
  };
}

/**
 * Parses `sort`: comma-separated `+field`/`-field` (a `+` decoded to a space counts as `+`; no sign means ascending).
 */
export function parseSort(text: string): SortKey[] {
  const items = text.split(',');
  if (items.length > MAX_SORT_KEYS)
    throw invalidQueryParam('sort', [
      { path: '#/sort', code: 'MAXIMUM', limit: MAX_SORT_KEYS, description: `more than ${MAX_SORT_KEYS} sort keys` },
    ]);
  const keys: SortKey[] = [];
  const errors = [];
  for (const [i, item] of items.entries()) {
    const match = /^([+\- ]?)([A-Za-z]+)$/.exec(item.trimEnd());
    if (match && (SORT_FIELDS as readonly string[]).includes(match[2] as string)) {
      keys.push({ field: match[2] as SortField, descending: match[1] === '-' });
    } else {
      errors.push({
        path: `#/sort/${i}`,
        code: 'UNKNOWN' as const,
        description: `unknown sort item "${item}"; fields: ${SORT_FIELDS.join(', ')}`,
      });
    }
  }
  if (errors.length > 0) throw invalidQueryParam('sort', errors);
  return keys;
}

/**
 * Reads an integer parameter within `[0, maximum]`: TYPE when it is not an integer, MINIMUM or
 * MAXIMUM (with the bound) when it is one out of range, however many digits it has.
 */
export function boundedInteger(
  raw: RawQuery,
  name: string,
  bounds: { readonly default: number; readonly maximum: number },
): number {
  const text = single(raw, name);
  if (text === undefined) return bounds.default;
  if (!/^-?\d+$/.test(text.trim()))
    throw invalidQueryParam(name, [{ path: `#/${name}`, code: 'TYPE', description: 'must be an integer' }]);
  // Digits beyond double precision still compare right against the small bounds.
  const value = Number(text);
  if (value < 0)
    throw invalidQueryParam(name, [
      { path: `#/${name}`, code: 'MINIMUM', limit: 0, description: 'must be at least 0' },
    ]);
  if (value > bounds.maximum)
    throw invalidQueryParam(name, [
      { path: `#/${name}`, code: 'MAXIMUM', limit: bounds.maximum, description: `must be at most ${bounds.maximum}` },
    ]);
  return value;
}

/** A parameter that may appear once; TYPE error when repeated. */
export function single(raw: RawQuery, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined || typeof value === 'string') return value;
  throw invalidQueryParam(name, [{ path: `#/${name}`, code: 'TYPE', description: 'must be given once' }]);
}

/**
 * The facets a search counts: those `facet` names, in `FACET_NAMES` order, or every one when it
 * is absent. Counting costs CPU per matching article, so a client that shows some facets only
 * asks for those.
 *
 * @throws ProblemError 400 invalid-query-param (`queryParam: 'facet'`) naming every unknown facet.
 */
export function parseFacets(names: readonly string[]): SearchQuery['facets'] {
  if (names.length === 0) return FACET_NAMES;
  const known: readonly string[] = FACET_NAMES;
  const errors = names.flatMap((name, i) =>
    known.includes(name)
      ? []
      : [
          {
            path: `#/facet/${i}`,
            code: 'UNKNOWN' as const,
            description: `unknown facet "${name}"; facets: ${FACET_NAMES.join(', ')}`,
          },
        ],
  );
  if (errors.length > 0) throw invalidQueryParam('facet', errors);
  return FACET_NAMES.filter((f) => names.includes(f));
}

/** A repeatable parameter; TYPE error (at its index) for an empty occurrence. */
export function many(raw: RawQuery, name: string): string[] {
  const value = raw[name];
  if (value === undefined) return [];
  const values = typeof value === 'string' ? [value] : [...value];
  const empty = values.indexOf('');
  if (empty !== -1)
    throw invalidQueryParam(name, [
      { path: `#/${name}/${empty}`, code: 'TYPE', description: 'must not be empty; leave the parameter out for all' },
    ]);
  return values;
}
