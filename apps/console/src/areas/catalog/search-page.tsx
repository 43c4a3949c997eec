import { useRef } from 'preact/hooks';
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
import type { SuggestReply } from './catalog-wire.js';
import { appliedCorrection } from './suggestions.js';

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
  // Suggestions for the box and for the correction line, the last answers kept (the same text is asked once).
  const suggested = useRef(new Map<string, SuggestReply>());
  const suggest = (q: string, signal: AbortSignal): Promise<SuggestReply> => {
    const key = `${search.businessShopId.join('\n')}\n${q}`;
    const known = suggested.current.get(key);
    if (known) return Promise.resolve(known);
    return client.suggest(q, search.businessShopId, signal).then((reply) => {
      if (suggested.current.size >= SUGGESTIONS_KEPT) suggested.current.clear();
      suggested.current.set(key, reply);
      return reply;
    });
  };
  const typedQ = search.q.trim();
  const corrected = useRemote(`${search.businessShopId.join('\n')}\n${typedQ}`, (signal) =>
    typedQ === '' ? Promise.resolve(undefined) : suggest(typedQ, signal),
  );
  const correction =
    corrected.state === 'ready' && corrected.value && result.state === 'ready'
      ? appliedCorrection(typedQ, corrected.value)
      : undefined;
  return (
    <>
      <h1>Catalog search</h1>
      <SearchForm
        search={search}
        currencies={currencies}
        autoCurrency={autoCurrency}
        onSearch={(next, how) => (how?.typing ? replacePath(searchPath(next)) : navigate(searchPath(next)))}
        suggest={suggest}
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
      {correction === undefined ? null : (
        <p class="correction">
          Showing results for <em>{correction}</em>
        </p>
      )}
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

/** Answers of `GET /api/suggest` a search page keeps. */
const SUGGESTIONS_KEPT = 50;

/**
 * Shows `path` in place of the current entry of the history (a search typed further replaces the
 * one typed before it): the router hears it as it hears the back button.
 */
function replacePath(path: string): void {
  if (path === location.pathname + location.search) return;
  history.replaceState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}
