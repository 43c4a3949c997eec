import type { WaitingArticle } from '../model/waiting-article.js';

export { waitingOf } from '../model/waiting-article.js';

/**
 * A shop's articles kept not searchable (`content_waiting_articles`), inside a writing
 * transaction of the store: one implementation per engine. Writes may be buffered until `flush`
 * (and are flushed before any read).
 */
export interface WaitingRows {
  /** Ids of the shop's waiting articles. */
  ids(shopId: string): Promise<Set<string>>;
  /** Stores or replaces a waiting article. */
  put(article: WaitingArticle): Promise<void>;
  /** The waiting article `articleId` of the shop, if any. */
  find(shopId: string, articleId: string): Promise<WaitingArticle | undefined>;
  /** Removes one; false when it was not waiting. */
  remove(shopId: string, articleId: string): Promise<boolean>;
  /** Removes every waiting article of the shop; returns how many. */
  clear(shopId: string): Promise<number>;
  /** Writes what is buffered. */
  flush(): Promise<void>;
}
