import { useEffect, useState } from 'preact/hooks';
import { PAGE_SIZES, type CatalogSearch } from './catalog-search.js';
import { sortsByPrice } from './price-sort-currency.js';
import { useFocusWhenLost } from './use-focus-when-lost.js';

export interface SearchFormProps {
  readonly search: CatalogSearch;
  /** Currencies of the shops, for the currency choice. */
  readonly currencies: readonly string[];
  /** The currency a price sort over "Any" uses (`priceSortCurrency`); undefined when none was chosen. */
  readonly autoCurrency?: string | undefined;
  /** Runs the changed search from its first page. */
  readonly onSearch: (search: CatalogSearch) => void;
}

const SORTS: readonly (readonly [string, string])[] = [
  ['', 'Relevance'],
  ['+price', 'Price, lowest first'],
  ['-price', 'Price, highest first'],
  ['+description', 'Description, A to Z'],
  ['+manufacturerName', 'Manufacturer, A to Z'],
  ['+id', 'Article id'],
];

/**
 * The search box with the sort, currency and page-size choices. Text is searched on submit
 * (Enter or the button); the choices apply at once.
 */
export function SearchForm({ search, currencies, autoCurrency, onSearch }: SearchFormProps) {
  const [text, setText] = useState(search.q);
  // Arriving from the sign-in form (whose button is gone), a keyboard user starts at the box.
  const box = useFocusWhenLost<HTMLInputElement>('shown');
  useEffect(() => setText(search.q), [search.q]);
  const change = (members: Partial<CatalogSearch>) => onSearch({ ...search, q: text, ...members, offset: 0 });
  const sort = SORTS.some(([value]) => value === search.sort) ? search.sort : '';
  const byPrice = sortsByPrice(search);
  const currency = search.currency || autoCurrency || '';
  return (
    <form
      role="search"
      class="catalog-search"
      onSubmit={(event) => {
        event.preventDefault();
        change({});
      }}
    >
      <label class="catalog-q">
        Search articles
        <input ref={box} type="search" name="q" value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </label>
      <button type="submit" class="primary">
        Search
      </button>
      <label>
        Sort by
        <select value={sort} onChange={(e) => change({ sort: e.currentTarget.value })}>
          {SORTS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Currency
        <select
          value={currency}
          aria-describedby={autoCurrency === undefined ? undefined : 'price-sort-currency'}
          onChange={(e) => change({ currency: e.currentTarget.value })}
        >
          <option value="" disabled={byPrice}>
            {byPrice ? 'Any (not when sorting by price)' : 'Any'}
          </option>
          {[...new Set([...currencies, ...(currency ? [currency] : [])])].map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </select>
      </label>
      <label>
        Per page
        <select value={String(search.limit)} onChange={(e) => change({ limit: Number(e.currentTarget.value) })}>
          {[...new Set([...PAGE_SIZES, search.limit])].map((size) => (
            <option key={size} value={String(size)}>
              {size}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}
