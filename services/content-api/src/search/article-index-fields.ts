import type { Article } from '../model/article.js';
import type { PricedArticle } from '../model/document-prices.js';
import { pricePerMinimumOrderQuantity, pricePerMinimumOrderQuantityInclSpecialTaxes } from '../model/article-prices.js';
import { majorVersionOf, standardSystemOf } from '../model/classification-system.js';
import { toScaledNumber } from '../model/decimal.js';
import { searchWords } from './search-query.js';

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
}

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
  let unspsc7: string | undefined;
  let unspsc9: string | undefined;
  for (const c of article.classifications) {
    // A facet per major version: `UNSPSC-7` counts `UNSPSC-7.0401` too (names are normalised on import).
    if (standardSystemOf(c.systemName) !== 'UNSPSC') continue;
    const major = majorVersionOf(c.systemName);
    if (major === '7') unspsc7 ??= c.groupId;
    else if (major === '9') unspsc9 ??= c.groupId;
  }
  return { searchText: words.join(' '), wordCount: words.length, ...articlePriceFields(article), unspsc7, unspsc9 };
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
