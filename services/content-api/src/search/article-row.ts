import type { Article } from '../model/article.js';
import { pricePerMinimumOrderQuantity, pricePerMinimumOrderQuantityInclSpecialTaxes } from '../model/article-prices.js';
import { toScaled } from '../model/decimal.js';
import { searchWords } from './search-query.js';

/** The columns of `content_articles` both engines share (the engine adds its index column). */
export interface ArticleRow {
  article_id: string;
  shop_id: string;
  manufacturer_name: string | null;
  description: string;
  /** Price of the minimum order quantity in 10^-6 currency units. */
  price_scaled: number;
  price_incl_scaled: number;
  unspsc7: string | null;
  unspsc9: string | null;
  /** Everything `q` searches: descriptions in every language, keywords, manufacturer, ids. */
  search_text: string;
  document: string;
}

/** Flattens an article into its row; `document` keeps the whole article as JSON. */
export function toArticleRow(article: Article): ArticleRow {
  const group = (system: string) => article.classifications.find((c) => c.systemName === system)?.groupId ?? null;
  const text = [
    ...article.descriptions.map((d) => d.value),
    ...article.keywords.flatMap((k) => k.values),
    article.manufacturerName ?? '',
    article.id,
    article.supplierArticleId,
    article.manufacturerArticleId ?? '',
    ...article.internationalArticleIds.map((i) => i.value),
  ];
  return {
    article_id: article.id,
    shop_id: article.shopId,
    manufacturer_name: article.manufacturerName ?? null,
    description: article.description,
    price_scaled: Number(toScaled(pricePerMinimumOrderQuantity(article))),
    price_incl_scaled: Number(toScaled(pricePerMinimumOrderQuantityInclSpecialTaxes(article))),
    unspsc7: group('UNSPSC-7'),
    unspsc9: group('UNSPSC-9'),
    search_text: searchWords(text.join(' ')).join(' '),
    document: JSON.stringify(article),
  };
}
