import { usePageTitle } from '../../shell/page-title.js';
import { activeFilters } from './active-filters.js';
import type { CatalogClient } from './catalog-client.js';
import { searchPath } from './catalog-route.js';
import type { CatalogSearch } from './catalog-search.js';
import type { Shop } from './catalog-wire.js';
import { FacetList } from './facet-list.js';
import { HitList } from './hit-list.js';
import { Pager } from './pager.js';
import { priceSortCurrency } from './price-sort-currency.js';
import { SearchForm } from './search-form.js';
import { RemoteFailure } from './remote-failure.js';
import { useFocusWhenLost } from './use-focus-when-lost.js';
import { useRemote } from './use-remote.js';
import { formatCount } from './units.js';

export interface SearchPageProps {
  readonly client: CatalogClient;
  readonly search: CatalogSearch;
  readonly shops: readonly Shop[];
  readonly navigate: (path: string) => void;
  readonly onError: (error: Error) => void;
}

/**
 * The search page: the form, the active filters (each removable), the number of hits (announced
 * politely), the facets and the hits with paging. Every change is a navigation, so the URL holds
 * the search and the back button walks back through it.
 */
export function SearchPage({ client, search, shops, navigate, onError }: SearchPageProps) {
  usePageTitle(search.q === '' ? 'Catalog search' : `${search.q} · Catalog search`);
  // Prices compare only within one currency: a price sort over "Any" uses the shops' currency.
  const autoCurrency = priceSortCurrency(search, shops);
  const asked = autoCurrency === undefined ? search : { ...search, currency: autoCurrency };
  const path = searchPath(asked);
  const result = useRemote(path, (signal) => client.search(asked, signal), onError);
  const shopNames = new Map(shops.map((shop) => [shop.id, shop.name]));
  const currencies = [...new Set(shops.map((shop) => shop.currency))].sort();
  const filters = activeFilters(search.fq, shopNames);
  const count = useFocusWhenLost<HTMLParagraphElement>(result.state === 'loading' ? '' : path);
  return (
    <>
      <h1>Catalog search</h1>
      <SearchForm
        search={search}
        currencies={currencies}
        autoCurrency={autoCurrency}
        onSearch={(next) => navigate(searchPath(next))}
      />
      {autoCurrency === undefined ? null : (
        <p class="hint" id="price-sort-currency">
          Sorted by price in {autoCurrency}, the currency of most shops searched: prices compare only within one
          currency. Choose another under Currency.
        </p>
      )}
      {filters.length > 0 || search.businessShopId.length > 0 ? (
        <ul class="active-filters" aria-label="Active filters">
          {filters.map((filter) => (
            <li key={filter.label}>
              <button type="button" onClick={() => navigate(searchPath({ ...search, fq: filter.without, offset: 0 }))}>
                Remove filter {filter.label}
              </button>
            </li>
          ))}
          {search.businessShopId.map((id) => (
            <li key={`shop-${id}`}>
              <button
                type="button"
                onClick={() =>
                  navigate(
                    searchPath({ ...search, businessShopId: search.businessShopId.filter((s) => s !== id), offset: 0 }),
                  )
                }
              >
                Remove filter Shop: {shopNames.get(id) ?? id}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <p role="status" class="result-count" tabIndex={-1} ref={count}>
        {result.state === 'ready'
          ? `${formatCount(result.value.total)} ${result.value.total === 1 ? 'article' : 'articles'}`
          : result.state === 'loading'
            ? 'Searching…'
            : ''}
      </p>
      <RemoteFailure remote={result} />
      {result.state === 'ready' ? (
        <div class="catalog-results">
          <FacetList
            facets={result.value.facets}
            search={search}
            shopNames={shopNames}
            onSearch={(next) => navigate(searchPath(next))}
          />
          <section aria-label="Results" class="results">
            {result.value.members.length === 0 ? <p>No article matches.</p> : null}
            <HitList hits={result.value.members} shopNames={shopNames} />
            <Pager search={search} total={result.value.total} />
          </section>
        </div>
      ) : null}
    </>
  );
}
