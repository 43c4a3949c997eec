import { describe, expect, it } from 'vitest';
import { EMPTY_SEARCH } from './catalog-search.js';
import { articlePath, catalogRoute, searchPath, shopPath } from './catalog-route.js';

describe('catalogRoute', () => {
  it('reads the search from the query of /', () => {
    expect(catalogRoute('/')).toEqual({ page: 'search', search: EMPTY_SEARCH });
    expect(catalogRoute(searchPath({ ...EMPTY_SEARCH, q: 'pen', currency: 'EUR' }))).toEqual({
      page: 'search',
      search: { ...EMPTY_SEARCH, q: 'pen', currency: 'EUR' },
    });
  });

  it('round-trips an article id holding a colon and a slash', () => {
    expect(articlePath('labtools:LAB/1')).toBe('/articles/labtools%3ALAB%2F1');
    expect(catalogRoute(articlePath('labtools:LAB/1'))).toEqual({ page: 'article', id: 'labtools:LAB/1' });
  });

  it('knows the shop list and nothing else', () => {
    expect(catalogRoute('/shops')).toEqual({ page: 'shops', shop: undefined });
    expect(catalogRoute(shopPath('labtools'))).toEqual({ page: 'shops', shop: 'labtools' });
    expect(catalogRoute('/articles/%E0')).toEqual({ page: 'not-found', path: '/articles/%E0' });
    expect(catalogRoute('/elsewhere')).toEqual({ page: 'not-found', path: '/elsewhere' });
  });
});
