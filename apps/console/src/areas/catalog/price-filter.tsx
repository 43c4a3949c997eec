import { useState } from 'preact/hooks';
import type { CatalogSearch } from './catalog-search.js';
import type { Decimal } from './catalog-wire.js';
import { formatDecimal, parseDecimal } from './format-money.js';
import { priceRangeOf, withPriceRange } from './price-range.js';

export interface PriceFilterProps {
  readonly search: CatalogSearch;
  readonly onSearch: (search: CatalogSearch) => void;
}

/**
 * The price range of the search (price per minimum order quantity, both bounds inclusive). Prices
 * of different currencies are never compared: over shops of several currencies the API asks for one.
 */
export function PriceFilter({ search, onSearch }: PriceFilterProps) {
  const current = priceRangeOf(search.fq);
  const [error, setError] = useState<string | undefined>();
  return (
    <form
      class="price-filter"
      aria-labelledby="price-filter-heading"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const read = (name: string) => {
          const value = data.get(name);
          return typeof value === 'string' ? value.trim() : '';
        };
        const [lowText, highText] = [read('lowest'), read('highest')];
        const lower = lowText === '' ? undefined : parseDecimal(lowText);
        const upper = highText === '' ? undefined : parseDecimal(highText);
        if ((lowText !== '' && lower === undefined) || (highText !== '' && upper === undefined)) {
          setError('Prices are numbers such as 12.50');
          return;
        }
        setError(undefined);
        onSearch({ ...search, fq: withPriceRange(search.fq, lower, upper), offset: 0 });
      }}
    >
      <h3 id="price-filter-heading">Price</h3>
      <PriceField label="Lowest price" name="lowest" value={current.lower} fq={search.fq} />
      <PriceField label="Highest price" name="highest" value={current.upper} fq={search.fq} />
      {error ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
      <button type="submit">Apply price</button>
    </form>
  );
}

/** One bound; the field is drawn anew for each `fq`, so it shows the bound of the search on screen. */
function PriceField(props: { label: string; name: string; value: Decimal | undefined; fq: string }) {
  return (
    <label>
      {props.label}
      <input
        key={`${props.name}-${props.fq}`}
        name={props.name}
        inputMode="decimal"
        size={8}
        defaultValue={props.value ? formatDecimal(props.value) : ''}
      />
    </label>
  );
}
