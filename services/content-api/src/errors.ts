import { defineProblemCatalogue, type ProblemDocument } from '@triad/service-kit';

/**
 * The content API's error catalogue. Codes never change meaning; `docs/errors.md` lists them.
 * `CONTENT_ERR_INVALID_QUERY_PARAM` is answered with the spec's `type`
 * (`<errorsBase>/errors/invalid-query-param`) and carries `queryParam` and `errors[]`.
 */
export const contentProblems = defineProblemCatalogue({
  CONTENT_ERR_INVALID_QUERY_PARAM: { status: 400, title: 'Invalid Query Parameter' },
  CONTENT_ERR_REQUISITIONER_INVALID: { status: 400, title: 'Invalid requisitioner id' },
  CONTENT_ERR_UNAUTHORIZED: { status: 401, title: 'Unauthorized' },
  CONTENT_ERR_FORBIDDEN: { status: 403, title: 'Forbidden' },
  CONTENT_ERR_ARTICLE_NOT_FOUND: { status: 404, title: 'Not Found' },
  CONTENT_ERR_SHOP_NOT_FOUND: { status: 404, title: 'Not Found' },
  CONTENT_ERR_NOT_ACCEPTABLE: { status: 406, title: 'Not Acceptable' },
  CONTENT_ERR_SHOP_EXISTS: { status: 409, title: 'A shop has this id already' },
  CONTENT_ERR_SHOP_HAS_ARTICLES: { status: 409, title: 'The shop still has articles' },
  CONTENT_ERR_SHOP_INVALID: { status: 422, title: 'The shop record is not valid' },
  CONTENT_ERR_TOKEN_THROTTLED: { status: 429, title: 'Too many wrong client secrets' },
  CONTENT_ERR_SEARCH_UNAVAILABLE: { status: 503, title: 'Search unavailable' },
});

export type ContentProblemCode = keyof typeof contentProblems.definitions;

/** Wire `type` suffixes of codes whose type the spec fixes; others keep the kit's `urn:triad:problem:<code>`. */
export const SPEC_PROBLEM_TYPES: Readonly<Partial<Record<ContentProblemCode, string>>> = {
  CONTENT_ERR_INVALID_QUERY_PARAM: '/errors/invalid-query-param',
};

/**
 * One ValidationError of the spec: `path` is a JSON pointer into the query, rooted at the parameters
 * (`#/limit`, `#/fq/expression/type`).
 */
export interface QueryParamViolation {
  readonly path: string;
  readonly code: 'TYPE' | 'MINIMUM' | 'MAXIMUM' | 'UNKNOWN';
  readonly description?: string;
  readonly limit?: number;
}

/** The body of a 400 `invalid-query-param` reply. */
export interface InvalidQueryParamBody extends ProblemDocument {
  readonly queryParam: string;
  readonly errors: readonly QueryParamViolation[];
}

/** A 400 `invalid-query-param` problem for `queryParam` listing `errors`. */
export function invalidQueryParam(queryParam: string, errors: readonly QueryParamViolation[]) {
  return contentProblems.create(
    'CONTENT_ERR_INVALID_QUERY_PARAM',
    `Query parameter ${queryParam} is not valid: ` +
      errors.map((e) => `${e.path} ${e.description ?? e.code}`).join('; '),
    { queryParam, errors },
  );
}
