import { Link } from '../../shell/link.js';
import { filterTitle } from './active-filters.js';
import { searchFromLink, type CatalogSearch } from './catalog-search.js';
import { searchPath } from './catalog-route.js';
import { linkOf, type Bucket, type Facet } from './catalog-wire.js';
import { PriceFilter } from './price-filter.js';
import { formatCount } from './units.js';

export interface FacetListProps {
  readonly facets: readonly Facet[];
  readonly search: CatalogSearch;
  /** Shop names by id, to name the shop facet's buckets. */
  readonly shopNames: ReadonlyMap<string, string>;
  readonly onSearch: (search: CatalogSearch) => void;
}

/**
 * The price range and the facets of a search, each bucket with its count. A bucket with an `apply-filter` link is a
 * link to the same search with that filter added (the API's own `fq`, so filters combine as the
 * API defines); a facet of one bucket and the rest bucket have no link and are plain text.
 */
export function FacetList({ facets, search, shopNames, onSearch }: FacetListProps) {
  return (
    <nav class="facets" aria-label="Filters">
      {/* On a phone the filters start folded, so the hits are in view; one press unfolds them. */}
      <details open={!matchMedia(NARROW).matches}>
        <summary>
          <h2>Filters</h2>
        </summary>
        <PriceFilter search={search} onSearch={onSearch} />
        {facets.length === 0 ? <p>No facets for this search.</p> : null}
        {facets.map((facet) => (
          <section key={facet.facetName} aria-labelledby={`facet-${facet.facetName}`}>
            <h3 id={`facet-${facet.facetName}`}>{filterTitle(facet.facetName)}</h3>
            <ul>
              {facet.buckets.map((bucket, index) => (
                <li key={`${bucket.value}-${index}`}>
                  <BucketEntry bucket={bucket} search={search} label={bucketLabel(facet, bucket, shopNames)} />
                </li>
              ))}
            </ul>
          </section>
        ))}
      </details>
    </nav>
  );
}

/** Where the layout puts the filters above the hits (catalog-area.css). */
const NARROW = '(max-width: 48rem)';

function BucketEntry({ bucket, search, label }: { bucket: Bucket; search: CatalogSearch; label: BucketLabel }) {
  const href = linkOf(bucket, 'apply-filter');
  const text = (
    <>
      {label.name}
      {label.code ? <span class="bucket-code"> {label.code}</span> : null} ({formatCount(bucket.count)})
    </>
  );
  if (href === undefined) return <span>{text}</span>;
  const next: CatalogSearch = { ...search, fq: searchFromLink(href).fq, offset: 0 };
  return <Link href={searchPath(next)}>{text}</Link>;
}

/** What a bucket is called, and the code behind a classification group's name. */
interface BucketLabel {
  readonly name: string;
  readonly code?: string;
}

function bucketLabel(facet: Facet, bucket: Bucket, shopNames: ReadonlyMap<string, string>): BucketLabel {
  if (bucket.otherValues !== undefined) return { name: `${formatCount(bucket.otherValues)} other values` };
  if (bucket.value === '') return { name: '(none)' };
  if (facet.facetName === 'businessShopId') return { name: shopNames.get(bucket.value) ?? bucket.value };
  // A classification group's name when the catalog gave one (`label`), its code after it.
  return bucket.label ? { name: bucket.label, code: bucket.value } : { name: bucket.value };
}
