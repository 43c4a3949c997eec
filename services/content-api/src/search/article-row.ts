import type { IndexedArticle } from './indexed-article.js';

/** The columns of PostgreSQL's `content_articles` besides `seq` (a delta rebuilds a shop's segment from them). */
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
  /** Encoded document (rows written before decision 0013 hold the article's JSON). */
  document: string;
}

/**
 * Flattens an indexed article into its row; `document` is its encoded document (`parseStoredArticle` reads both
 * layouts).
 */
export function toArticleRow(article: IndexedArticle): ArticleRow {
  const fields = article.fields;
  return {
    article_id: article.id,
    shop_id: article.shopId,
    manufacturer_name: article.manufacturerName ?? null,
    description: article.description,
    price_scaled: fields.priceScaled,
    price_incl_scaled: fields.priceInclScaled,
    unspsc7: fields.unspsc7 ?? null,
    unspsc9: fields.unspsc9 ?? null,
    search_text: fields.searchText,
    document: article.document,
  };
}
