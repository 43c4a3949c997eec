import { readCatalogSearch, writeCatalogSearch, type CatalogSearch } from './catalog-search.js';

/** A page of the catalog area, read from the browser's path and query. */
export type CatalogRoute =
  | { readonly page: 'search'; readonly search: CatalogSearch }
  | { readonly page: 'article'; readonly id: string }
  | { readonly page: 'shops'; readonly shop: string | undefined }
  | { readonly page: 'not-found'; readonly path: string };

/**
 * The page `path` (`location.pathname + search`) shows: `/` and `/?q=...` the search,
 * `/articles/<id>` an article (the id URL-encoded, it holds a `:`), `/shops` the shops
 * (`?shop=<id>`: scrolled to that one). The content API's own paths (`/api`, `/admin`, `/oauth`)
 * never reach the page.
 */
export function catalogRoute(path: string): CatalogRoute {
  const url = new URL(path, 'http://page.invalid');
  if (url.pathname === '/') return { page: 'search', search: readCatalogSearch(url.searchParams) };
  if (url.pathname === '/shops') return { page: 'shops', shop: url.searchParams.get('shop') ?? undefined };
  const article = /^\/articles\/([^/]+)$/.exec(url.pathname);
  if (article?.[1] !== undefined) {
    try {
      return { page: 'article', id: decodeURIComponent(article[1]) };
    } catch {
      return { page: 'not-found', path };
    }
  }
  return { page: 'not-found', path };
}

/** The page path of a search (`/` for the empty one). */
export function searchPath(search: CatalogSearch): string {
  const query = writeCatalogSearch(search).toString();
  return query === '' ? '/' : `/?${query}`;
}

/** The page path of an article. */
export function articlePath(id: string): string {
  return `/articles/${encodeURIComponent(id)}`;
}

/** The page path of the shop list, scrolled to one shop's entry when `id` is given. */
export function shopPath(id?: string): string {
  return id === undefined ? '/shops' : `/shops?${new URLSearchParams({ shop: id }).toString()}`;
}
