import type { Article, ArticleClassification } from '../model/article.js';
import type { PricedArticle } from '../model/document-prices.js';
import { pricePerMinimumOrderQuantity, pricePerMinimumOrderQuantityInclSpecialTaxes } from '../model/article-prices.js';
import { majorVersionOf, standardSystemOf } from '../model/classification-system.js';
import { toScaledNumber } from '../model/decimal.js';
import { searchWords, type ClassificationFacet } from './search-query.js';

/** What every engine indexes of an article besides its JSON document. */
export interface ArticleIndexFields {
  /**
   * Everything `q` searches (descriptions in every language, keywords, manufacturer, ids) as `searchWords`, joined by
   * spaces.
   */
  readonly searchText: string;
  /** Number of words in `searchText` (the article's length for ranking). */
  readonly wordCount: number;
  /** Price of the minimum order quantity in 10^-6 currency units. */
  readonly priceScaled: number;
  readonly priceInclScaled: number;
  /** Group of the first UNSPSC classification of major version 7 / 9 (`UNSPSC-7`, `UNSPSC-7.0401`), if any. */
  readonly unspsc7: string | undefined;
  readonly unspsc9: string | undefined;
  /** Group of the first UNSPSC classification of any version (bare `UNSPSC` too), if any. */
  readonly unspsc: string | undefined;
  /** Group of the first ECLASS / ETIM classification of any version, if any. */
  readonly eclass: string | undefined;
  readonly etim: string | undefined;
  /** The name the catalog gave each facet's group (`groupName` of that classification), when it gave one. */
  readonly groupNames: GroupNames;
}

/** The name of the group of each classification facet, when the catalog gave one. */
export type GroupNames = { readonly [F in ClassificationFacet]?: string };

/** Derives the indexed fields of an article (pure). */
export function articleIndexFields(article: Article): ArticleIndexFields {
  const parts: string[] = [];
  for (const d of article.descriptions) parts.push(d.value);
  for (const k of article.keywords) for (const v of k.values) parts.push(v);
  parts.push(
    article.manufacturerName ?? '',
    article.id,
    article.supplierArticleId,
    article.manufacturerArticleId ?? '',
  );
  for (const i of article.internationalArticleIds) parts.push(i.value);
  const words = searchWords(parts.join(' '));
  return {
    searchText: words.join(' '),
    wordCount: words.length,
    ...articlePriceFields(article),
    ...classificationFields(article),
  };
}

/** What the classification facets index of an article (pure): its groups and their names. */
export type ClassificationFields = Pick<
  ArticleIndexFields,
  'unspsc7' | 'unspsc9' | 'unspsc' | 'eclass' | 'etim' | 'groupNames'
>;

/** The classification facets' fields of an article (pure). */
export function classificationFields(article: Pick<Article, 'classifications'>): ClassificationFields {
  let unspsc7: ArticleClassification | undefined;
  let unspsc9: ArticleClassification | undefined;
  let unspsc: ArticleClassification | undefined;
  let eclass: ArticleClassification | undefined;
  let etim: ArticleClassification | undefined;
  for (const c of article.classifications) {
    // One facet per system of any version, and for UNSPSC one per major version too: `UNSPSC-7`
    // counts `UNSPSC-7.0401` (names are normalised on import).
    const system = standardSystemOf(c.systemName);
    if (system === 'ECLASS') eclass ??= c;
    else if (system === 'ETIM') etim ??= c;
    else if (system === 'UNSPSC') {
      unspsc ??= c;
      const major = majorVersionOf(c.systemName);
      if (major === '7') unspsc7 ??= c;
      else if (major === '9') unspsc9 ??= c;
    }
  }
  const groupNames: { [F in ClassificationFacet]?: string } = {};
  if (unspsc7?.groupName) groupNames['UNSPSC-7'] = unspsc7.groupName;
  if (unspsc9?.groupName) groupNames['UNSPSC-9'] = unspsc9.groupName;
  if (unspsc?.groupName) groupNames.UNSPSC = unspsc.groupName;
  if (eclass?.groupName) groupNames.ECLASS = eclass.groupName;
  if (etim?.groupName) groupNames.ETIM = etim.groupName;
  return {
    unspsc7: unspsc7?.groupId,
    unspsc9: unspsc9?.groupId,
    unspsc: unspsc?.groupId,
    eclass: eclass?.groupId,
    etim: etim?.groupId,
    groupNames,
  };
}

/** The indexed prices of an article alone (pure): what a price change must index again. */
export function articlePriceFields(
  article: PricedArticle,
): Pick<ArticleIndexFields, 'priceScaled' | 'priceInclScaled'> {
  const priceScaled = toScaledNumber(pricePerMinimumOrderQuantity(article));
  return {
    priceScaled,
    // Without special taxes both prices are the same number.
    priceInclScaled:
      article.specialTaxes.length === 0
        ? priceScaled
        : toScaledNumber(pricePerMinimumOrderQuantityInclSpecialTaxes(article)),
  };
}
