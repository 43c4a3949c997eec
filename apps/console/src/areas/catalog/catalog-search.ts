/**
 * One search of the catalog: the parameters of `GET /api/articles` the page sets. The same
 * members, under the same names, make the page's URL, so a search can be bookmarked, shared and
 * walked back with the browser's back button.
 */
export interface CatalogSearch {
  /** Free text; `''` is every article. */
  readonly q: string;
  /** The filter query as the API takes it (JSON text); `''` for none. */
  readonly fq: string;
  /** Only these shops; empty for every shop. */
  readonly businessShopId: readonly string[];
  /** `+price`, `-price`, `+description`...; `''` for the API's default order. */
  readonly sort: string;
  /** ISO 4217 code limiting the search to shops selling in it; `''` for every currency. */
  readonly currency: string;
  readonly limit: number;
  readonly offset: number;
}

/** Hits per page unless the URL says otherwise (the API's own default). */
export const DEFAULT_LIMIT = 20;

/** The page sizes offered. */
export const PAGE_SIZES: readonly number[] = [20, 50, 100];

/** Largest offset the API allows. */
export const MAX_OFFSET = 8000;

export const EMPTY_SEARCH: CatalogSearch = Object.freeze({
  q: '',
  fq: '',
  businessShopId: Object.freeze([]),
  sort: '',
  currency: '',
  limit: DEFAULT_LIMIT,
  offset: 0,
});

/**
 * Reads a search from query parameters: the page's URL or an API link such as a facet bucket's
 * `apply-filter` (its `hash` is dropped: the page always asks for the current content). Missing
 * or malformed numbers take their defaults; the API judges the rest and says what is wrong.
 */
export function readCatalogSearch(params: URLSearchParams): CatalogSearch {
  const whole = (name: string, fallback: number, max: number): number => {
    const text = params.get(name);
    const number = text !== null && /^\d{1,6}$/.test(text) ? Number(text) : fallback;
    return Math.min(number, max);
  };
  return {
    q: params.get('q') ?? '',
    fq: params.get('fq') ?? '',
    businessShopId: params.getAll('businessShopId').filter((id) => id !== ''),
    // URLSearchParams decodes `+price` to ` price`: the API reads a bare field as ascending too.
    sort: (params.get('sort') ?? '').trim(),
    currency: params.get('currency') ?? '',
    limit: whole('limit', DEFAULT_LIMIT, 1000),
    offset: whole('offset', 0, MAX_OFFSET),
  };
}

/** The search as query parameters, leaving out every member at its default (`q` first). */
export function writeCatalogSearch(search: CatalogSearch): URLSearchParams {
  const params = new URLSearchParams();
  if (search.q !== '') params.set('q', search.q);
  if (search.fq !== '') params.set('fq', search.fq);
  for (const id of search.businessShopId) params.append('businessShopId', id);
  if (search.sort !== '') params.set('sort', search.sort);
  if (search.currency !== '') params.set('currency', search.currency);
  if (search.limit !== DEFAULT_LIMIT) params.set('limit', String(search.limit));
  if (search.offset !== 0) params.set('offset', String(search.offset));
  return params;
}

/** The search a link of the API (`apply-filter`, `next`...) leads to. */
export function searchFromLink(href: string): CatalogSearch {
  return readCatalogSearch(new URL(href).searchParams);
}
