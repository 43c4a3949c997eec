import { describe, expect, it } from 'vitest';
import { contentProblems, invalidQueryParam } from './errors.js';

describe('content problem catalogue', () => {
  it('pins every code to its status and title', () => {
    expect(contentProblems.definitions).toEqual({
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
  });

  it('builds invalid-query-param problems carrying queryParam and errors', () => {
    const problem = invalidQueryParam('limit', [
      { path: '#/limit', code: 'MAXIMUM', limit: 1000, description: 'must be at most 1000' },
    ]);
    expect(problem.status).toBe(400);
    expect(problem.extensions).toEqual({
      queryParam: 'limit',
      errors: [{ path: '#/limit', code: 'MAXIMUM', limit: 1000, description: 'must be at most 1000' }],
    });
    expect(problem.detail).toBe('Query parameter limit is not valid: #/limit must be at most 1000');
  });
});
