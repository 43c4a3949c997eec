import type { Article } from '../model/article.js';
import type { Decimal } from '../model/decimal.js';

/** Facets the search computes; the spec says the list may grow. */
export const FACET_NAMES = ['businessShopId', 'manufacturerName', 'UNSPSC-7', 'UNSPSC-9'] as const;
export type FacetName = (typeof FACET_NAMES)[number];

/** Fields `sort` accepts (`+price,-description`); `score` only orders when `q` is given. */
export const SORT_FIELDS = ['score', 'price', 'description', 'manufacturerName', 'id'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

export interface SortKey {
  readonly field: SortField;
  readonly descending: boolean;
}

/** A parsed `fq` expression (the wire grammar of the spec, already validated). */
export type FilterExpression =
  | { readonly type: 'And' | 'Or'; readonly operands: readonly FilterExpression[] }
  | { readonly type: 'ExactStringMatchFilter'; readonly filterName: 'businessShopId' | 'manufacturerName'; readonly value: string }
  | {
      readonly type: 'DecimalRangeFilter';
      readonly filterName: 'pricePerMinimumOrderQuantity' | 'pricePerMinimumOrderQuantityInclSpecialTaxes';
      readonly lowerBound?: Decimal;
      readonly upperBound?: Decimal;
    }
  | { readonly type: 'ExactReferenceFeatureMatchFilter'; readonly filterName: 'UNSPSC-7' | 'UNSPSC-9'; readonly group: string };

/** What a backend is asked: every member already validated and bounded. */
export interface SearchQuery {
  /** Words of `q` (letters and digits only); empty: every article matches. */
  readonly words: readonly string[];
  readonly filter?: FilterExpression;
  /** Only these shops; empty: all shops. */
  readonly shopIds: readonly string[];
  /** Empty: by score when words are given, else by id. Ties are always broken by id. */
  readonly sort: readonly SortKey[];
  readonly limit: number;
  readonly offset: number;
  readonly facets: readonly FacetName[];
}

export interface SearchHit {
  readonly article: Article;
  /** Relevance, higher is better; 0 without words. Not comparable across queries. */
  readonly score: number;
}

export interface FacetCount {
  readonly facetName: FacetName;
  /** Most frequent first, then by value; at most `FACET_BUCKET_LIMIT` buckets. */
  readonly buckets: readonly { readonly value: string; readonly count: number }[];
}

/** Most buckets one facet returns. */
export const FACET_BUCKET_LIMIT = 100;

export interface SearchPage {
  readonly total: number;
  readonly hits: readonly SearchHit[];
  readonly facets: readonly FacetCount[];
}

/** Most words of `q` that take part in a search. */
export const MAX_QUERY_WORDS = 32;

/**
 * Splits free text into the words the indexes know: runs of letters and digits, lower-cased,
 * accents removed (`Étiquettes` -> `etiquettes`). Applied to indexed text and to `q` alike, so
 * both engines tokenize the same way.
 */
export function searchWords(text: string): string[] {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}
