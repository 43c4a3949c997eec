import type { Article } from '../model/article.js';
import type { Decimal } from '../model/decimal.js';

/**
 * Facets over an article's classification (decision 0032): the group of its first classification
 * in UNSPSC of major version 7 / 9, in UNSPSC of any version (`UNSPSC` without a version too), in
 * ECLASS and in ETIM of any version. Each is also a filter (`ExactReferenceFeatureMatchFilter`).
 */
export const CLASSIFICATION_FACETS = ['UNSPSC-7', 'UNSPSC-9', 'UNSPSC', 'ECLASS', 'ETIM'] as const;
export type ClassificationFacet = (typeof CLASSIFICATION_FACETS)[number];

/** Facets the search computes; the spec says the list may grow. */
export const FACET_NAMES = ['businessShopId', 'manufacturerName', ...CLASSIFICATION_FACETS] as const;
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
  | {
      readonly type: 'ExactStringMatchFilter';
      readonly filterName: 'businessShopId' | 'manufacturerName';
      readonly value: string;
    }
  | {
      readonly type: 'DecimalRangeFilter';
      readonly filterName: 'pricePerMinimumOrderQuantity' | 'pricePerMinimumOrderQuantityInclSpecialTaxes';
      readonly lowerBound?: Decimal;
      readonly upperBound?: Decimal;
    }
  | {
      readonly type: 'ExactReferenceFeatureMatchFilter';
      readonly filterName: ClassificationFacet;
      readonly group: string;
    };

/**
 * How the words of `q` match (decision 0040): `exact`, only as indexed (as before that
 * decision); `default`, also with typos, the last word as a prefix, umlauts as ae/oe/ue and ß as ss.
 */
export const MATCHINGS = ['default', 'exact'] as const;
export type Matching = (typeof MATCHINGS)[number];

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
  /** How `words` match; absent: `exact`. */
  readonly matching?: Matching;
}

export interface SearchHit {
  readonly article: Article;
  /** Relevance, higher is better; 0 without words. Not comparable across queries. */
  readonly score: number;
}

export interface FacetCount {
  readonly facetName: FacetName;
  /**
   * Every matching article in exactly one bucket: most frequent first, then by value; `''` for
   * articles without a value; at most `FACET_BUCKET_LIMIT` buckets, the last then a rest bucket
   * (`otherValues` set). See `topBuckets`. `label`: the name a catalog gave a classification
   * group (`groupName`), when one did.
   */
  readonly buckets: readonly {
    readonly value: string;
    readonly count: number;
    readonly otherValues?: number;
    readonly label?: string;
  }[];
}

/** Most buckets one facet returns, the rest bucket included. */
export const FACET_BUCKET_LIMIT = 100;

export interface SearchPage {
  readonly total: number;
  readonly hits: readonly SearchHit[];
  readonly facets: readonly FacetCount[];
  /** The indexed words the words of `q` matched (for highlighting); absent without words. */
  readonly matched?: MatchedWords;
}

/**
 * The indexed words (as `searchWords` gives them) the words of `q` stood for under the matching in
 * force, by every way they matched (as typed, umlaut spellings, prefix, compound, typo).
 */
export interface MatchedWords {
  readonly words: ReadonlySet<string>;
  /** Any indexed word starting with one of these matched too (a last word with digits on SQLite, matched by prefix). */
  readonly prefixes: readonly string[];
}

/** Most words of `q` that take part in a search. */
export const MAX_QUERY_WORDS = 32;

/**
 * Splits free text into the words the indexes know: runs of letters and digits, lower-cased,
 * accents removed (`Étiquettes` -> `etiquettes`). Applied to indexed text and to `q` alike, so
 * both engines tokenize the same way.
 */
export function searchWords(text: string): string[] {
  const words: string[] = [];
  let start = -1;
  let ascii = true;
  for (let i = 0; i <= text.length; i += 1) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    if (c >= 128) {
      // Anything beyond ASCII stays in the run; the slow path below decides what it is.
      if (start < 0) start = i;
      ascii = false;
    } else if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90)) {
      if (start < 0) {
        start = i;
        ascii = true;
      }
    } else if (start >= 0) {
      const run = text.slice(start, i);
      if (ascii) words.push(run.toLowerCase());
      else for (const word of normalizedRun(run)) words.push(word);
      start = -1;
    }
  }
  return words;
}

/** Runs seen before (catalogs repeat their words), bounded: cleared when full. */
const RUN_CACHE = new Map<string, readonly string[]>();
const RUN_CACHE_LIMIT = 50_000;

/**
 * The words of a run between ASCII separators that holds other characters: decomposed, marks
 * removed, lower-cased and split at anything that is not a letter or digit. No ASCII separator
 * is a letter, digit or mark, so splitting there first gives the words the whole text would.
 */
function normalizedRun(run: string): readonly string[] {
  let words = RUN_CACHE.get(run);
  if (words === undefined) {
    words =
      run
        .normalize('NFD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? [];
    if (RUN_CACHE.size >= RUN_CACHE_LIMIT) RUN_CACHE.clear();
    RUN_CACHE.set(run, words);
  }
  return words;
}
