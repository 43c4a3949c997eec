import type { BusinessShop } from '../model/article.js';
import type { ParsedSearch } from '../search/parse-search-query.js';
import { SEARCH_OFFSET } from '../search/parse-search-query.js';
import type { FacetCount, FacetName, FilterExpression, SearchPage } from '../search/search-query.js';
import { presentHighlights, presentHit } from './article-presenter.js';
import { formEncode, type Link, type LinkBuilder } from './links.js';

const SEARCH_PATH = '/api/articles';

/**
 * Paging links of a slice, by the spec's rules: `self` always; `next` while articles remain and
 * the next offset is allowed; `prev` (offset clamped at 0) and `first` when offset > 0; `last`
 * only when the last slice's offset is within the offset limit. With `limit` 0 only `self`.
 */
export function pagingLinks(
  total: number,
  offset: number,
  limit: number,
  maxOffset: number,
  linkAt: (rel: string, offset: number) => Link,
): Link[] {
  const links = [linkAt('self', offset)];
  if (limit === 0) return links;
  if (offset + limit < total && offset + limit <= maxOffset) links.push(linkAt('next', offset + limit));
  if (offset > 0) links.push(linkAt('prev', Math.max(0, offset - limit)), linkAt('first', 0));
  const last = total === 0 ? 0 : Math.floor((total - 1) / limit) * limit;
  if (last <= maxOffset) links.push(linkAt('last', last));
  return links;
}

/** The search request's own parameters, for links that repeat it with one change (`fq` as given). */
export function searchParams(
  search: ParsedSearch,
  offset: number,
  fq: string | undefined,
  sortText: string | undefined,
) {
  return {
    ...(search.q !== undefined ? { q: search.q } : {}),
    ...(fq !== undefined ? { fq } : {}),
    ...(sortText !== undefined ? { sort: sortText } : {}),
    ...(search.query.shopIds.length > 0 ? { businessShopId: search.query.shopIds } : {}),
    ...(search.currency !== undefined ? { currency: search.currency } : {}),
    ...(search.facets !== undefined ? { facet: search.facets } : {}),
    ...(search.matching !== undefined ? { matching: search.matching } : {}),
    ...(search.highlight ? { highlight: 'true' } : {}),
    limit: search.query.limit,
    offset,
  };
}

function bucketFilter(facetName: FacetName, value: string): FilterExpression {
  if (facetName === 'businessShopId' || facetName === 'manufacturerName')
    return { type: 'ExactStringMatchFilter', filterName: facetName, value };
  return { type: 'ExactReferenceFeatureMatchFilter', filterName: facetName, group: value };
}

/**
 * The `apply-filter` link of a bucket: the search again from offset 0, its `fq` the request's
 * filter And the bucket's (`{"expression": ...}`). Built once per request as a template around
 * `fq` and once per facet as the encoded start of the bucket's filter, so a bucket costs the
 * encoding of its value only; the href is byte for byte that of
 * `links.link('apply-filter', SEARCH_PATH, searchParams(search, 0, JSON.stringify({ expression }), sortText))`.
 */
function applyFilterLinks(
  search: ParsedSearch,
  sortText: string | undefined,
  links: LinkBuilder,
): (facet: FacetCount, value: string) => Link {
  const template = links.link('apply-filter', SEARCH_PATH, searchParams(search, 0, '', sortText));
  const queryStart = template.href.indexOf('?') + 1;
  let fqEnd = queryStart;
  for (const part of template.href.slice(queryStart).split('&')) {
    if (part === 'fq=') break;
    fqEnd += part.length + 1;
  }
  fqEnd += 'fq='.length;
  const before = template.href.slice(0, fqEnd);
  const after = template.href.slice(fqEnd);
  const filter = search.query.filter;
  // `{"expression":{"type":"And","operands":[<filter>,<bucket>]}}`, or `{"expression":<bucket>}`.
  const head = filter ? `{"expression":{"type":"And","operands":[${JSON.stringify(filter)},` : '{"expression":';
  const end = formEncode(filter ? '}]}}' : '}}');
  const starts = new Map<FacetName, string>();
  return (facet, value) => {
    let start = starts.get(facet.facetName);
    if (start === undefined) {
      // The bucket's filter with an empty value ends in `""}`: what comes before is the same for every value.
      start = before + formEncode(head + JSON.stringify(bucketFilter(facet.facetName, '')).slice(0, -3));
      starts.set(facet.facetName, start);
    }
    return {
      href: start + formEncode(JSON.stringify(value)) + end + after,
      mediaType: template.mediaType,
      method: template.method,
      rel: template.rel,
    };
  };
}

/** A facet bucket on the wire. */
interface WireBucket {
  bucketType: 'STRING';
  value: string;
  count: number;
  label?: string;
  otherValues?: number;
  _schema: { links: Link[] };
}

/**
 * The search result resource: total, slice, hits, facets with apply-filter links, paging links.
 * A bucket with value `''` counts the articles without a value (its filter, value `''`, selects
 * them); a classification group's bucket carries the group's name as `label` when a catalog gave
 * one; a rest bucket (`otherValues`: how many values it gathers) has no link.
 */
export function presentSearchResult(
  search: ParsedSearch,
  page: SearchPage,
  shops: ReadonlyMap<string, BusinessShop>,
  links: LinkBuilder,
  timeMs: number,
) {
  const sortText =
    search.query.sort.length > 0
      ? search.query.sort.map((k) => `${k.descending ? '-' : '+'}${k.field}`).join(',')
      : undefined;
  const { limit, offset } = search.query;
  let applyFilterLink: ((facet: FacetCount, value: string) => Link) | undefined;
  const applyFilter = (facet: FacetCount, value: string) =>
    (applyFilterLink ??= applyFilterLinks(search, sortText, links))(facet, value);
  return {
    total: page.total,
    offset,
    limit,
    members: page.hits.map((hit) => {
      const member = presentHit(hit.article, hit.score, shops.get(hit.article.shopId), links);
      return search.highlight ? { ...member, highlights: presentHighlights(hit.article, page.matched) } : member;
    }),
    facets: page.facets
      .filter((facet) => facet.buckets.length > 0)
      .map((facet) => ({
        facetName: facet.facetName,
        // The rest bucket has no filter that selects it, so no link.
        buckets: facet.buckets.map((bucket) => {
          // Members assigned in order rather than spread (see `presentHitArticle`): the same bytes.
          const wire: WireBucket = { bucketType: 'STRING', value: bucket.value, count: bucket.count } as WireBucket;
          if (bucket.label !== undefined) wire.label = bucket.label;
          if (bucket.otherValues !== undefined) wire.otherValues = bucket.otherValues;
          wire._schema = {
            links:
              facet.buckets.length > 1 && bucket.otherValues === undefined ? [applyFilter(facet, bucket.value)] : [],
          };
          return wire;
        }),
      })),
    _status: { timeMs },
    _schema: {
      links: pagingLinks(page.total, offset, limit, SEARCH_OFFSET.maximum, (rel, at) =>
        links.link(rel, SEARCH_PATH, searchParams(search, at, search.fq, sortText)),
      ),
    },
  };
}

/** The search result resource as the client receives it. */
export type SearchResultReply = ReturnType<typeof presentSearchResult>;
