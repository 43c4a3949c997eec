import { describe, expect, it } from 'vitest';
import { EMPTY_SEARCH, readCatalogSearch, searchFromLink, writeCatalogSearch } from './catalog-search.js';

describe('catalog search parameters', () => {
  it('writes only what differs from the defaults', () => {
    expect(writeCatalogSearch(EMPTY_SEARCH).toString()).toBe('');
    expect(writeCatalogSearch({ ...EMPTY_SEARCH, q: 'pen', offset: 20 }).toString()).toBe('q=pen&offset=20');
  });

  it('reads back every member it writes', () => {
    const search = {
      q: 'ballpoint pen',
      fq: '{"expression":{"type":"ExactStringMatchFilter","filterName":"manufacturerName","value":"Bosch"}}',
      businessShopId: ['labtools', 'office-direct'],
      sort: '-price',
      currency: 'EUR',
      limit: 50,
      offset: 100,
    };
    expect(readCatalogSearch(writeCatalogSearch(search))).toEqual(search);
  });

  it('reads an ascending sort whose + was decoded to a space', () => {
    expect(readCatalogSearch(new URLSearchParams('sort=+price')).sort).toBe('price');
  });

  it('falls back to the defaults for malformed or out-of-range numbers', () => {
    const search = readCatalogSearch(new URLSearchParams('limit=abc&offset=999999'));
    expect(search.limit).toBe(20);
    expect(search.offset).toBe(8000);
  });

  it('follows an apply-filter link without its content hash', () => {
    const href =
      'http://127.0.0.1:8081/api/articles?q=pen&fq=%7B%22expression%22%3A%7B%7D%7D&limit=20&offset=0&hash=c3b5c79656cb2d4e';
    const search = searchFromLink(href);
    expect(search).toEqual({ ...EMPTY_SEARCH, q: 'pen', fq: '{"expression":{}}' });
    expect(writeCatalogSearch(search).has('hash')).toBe(false);
  });
});
