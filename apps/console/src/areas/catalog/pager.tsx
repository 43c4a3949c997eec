import { Link } from '../../shell/link.js';
import { MAX_OFFSET, type CatalogSearch } from './catalog-search.js';
import { searchPath } from './catalog-route.js';

/**
 * Previous and next page links of a search with `total` hits, and where the page is. The API
 * serves offsets up to 8000: beyond it, narrow the search.
 */
export function Pager({ search, total }: { readonly search: CatalogSearch; readonly total: number }) {
  const { limit, offset } = search;
  if (limit === 0 || total <= limit) return null;
  const page = Math.floor(offset / limit) + 1;
  const pages = Math.ceil(total / limit);
  const previous = offset > 0 ? Math.max(0, offset - limit) : undefined;
  const next = offset + limit < total && offset + limit <= MAX_OFFSET ? offset + limit : undefined;
  return (
    <nav class="pager" aria-label="Pages">
      {previous === undefined ? null : <Link href={searchPath({ ...search, offset: previous })}>Previous page</Link>}
      <span>
        Page {page} of {pages}
      </span>
      {next === undefined ? null : <Link href={searchPath({ ...search, offset: next })}>Next page</Link>}
    </nav>
  );
}
