import type { Article } from '../model/article.js';
import { encodeArticleDocument } from '../model/article-document.js';
import type { PriceSchedule } from '../model/price-schedule.js';
import { articleIndexFields, type ArticleIndexFields } from './article-index-fields.js';

/**
 * An article ready to store: what the stores index plus its encoded document. Everything is
 * computed from the article once (by `indexArticle`), so imports can do it off the thread that
 * writes, and it crosses threads as plain strings and numbers.
 */
export interface IndexedArticle {
  readonly id: string;
  readonly shopId: string;
  readonly supplierArticleId: string;
  readonly description: string;
  readonly manufacturerName: string | undefined;
  /** `encodeArticleDocument(article)`. */
  readonly document: string;
  readonly fields: ArticleIndexFields;
  /** When its prices may change at a date (decision 0033): stored beside it in `content_price_schedule`. */
  readonly priceSchedule?: PriceSchedule;
}

/** Indexes an article (pure). */
export function indexArticle(article: Article): IndexedArticle {
  return {
    id: article.id,
    shopId: article.shopId,
    supplierArticleId: article.supplierArticleId,
    description: article.description,
    manufacturerName: article.manufacturerName,
    document: encodeArticleDocument(article),
    fields: articleIndexFields(article),
  };
}

/** Indexes an article unless it already is indexed. */
export function indexed(item: Article | IndexedArticle): IndexedArticle {
  return 'document' in item ? item : indexArticle(item);
}
