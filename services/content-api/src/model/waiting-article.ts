/**
 * An article kept but not searchable (decision 0033, "Keeping records without a current price"):
 * its record passed every check but has no price valid now. It is stored apart from the
 * searchable articles (`content_waiting_articles`), never found by search or by id, and becomes
 * searchable when a price is valid (at `searchableFrom`, or by new prices). Plain data: it
 * crosses threads.
 */
export interface WaitingArticle {
  readonly kind: 'waiting';
  /** `<shopId>:<supplierArticleId>`, the id it will have when searchable. */
  readonly id: string;
  readonly shopId: string;
  readonly supplierArticleId: string;
  /** JSON of the record as read (a BMEcat item with its ladders that have not ended), to check again later. */
  readonly document: string;
  /** ISO 8601 date-time (UTC) from which a ladder it has is valid; null: it waits for new prices. */
  readonly searchableFrom: string | null;
  /** Why it is not searchable, in the file's words. */
  readonly reason: string;
}

/** Whether an item to store (an article, an indexed one, a waiting one) is kept not searchable. */
export function isWaiting<T extends object>(item: T | WaitingArticle): item is WaitingArticle {
  return 'kind' in item && item.kind === 'waiting';
}

/** A stored row as a `WaitingArticle`. */
export function waitingOf(row: {
  readonly shop_id: string;
  readonly article_id: string;
  readonly document: string;
  readonly searchable_from: string | null;
  readonly reason: string;
}): WaitingArticle {
  return {
    kind: 'waiting',
    id: row.article_id,
    shopId: row.shop_id,
    supplierArticleId: row.article_id.slice(row.shop_id.length + 1),
    document: row.document,
    searchableFrom: row.searchable_from,
    reason: row.reason,
  };
}
