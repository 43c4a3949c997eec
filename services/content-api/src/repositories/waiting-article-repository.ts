import type { Database } from '@triad/db';
import type { ContentTables } from '../migrations/content-tables.js';
import { waitingOf, type WaitingArticle } from '../model/waiting-article.js';

/**
 * Reads the articles kept not searchable (`content_waiting_articles`, decision 0033) for the
 * price timer: when the next one becomes searchable, and those due. Writes go through the
 * search backend (`applyShopDelta`), in its transactions.
 */
export class WaitingArticleRepository {
  readonly #database: Database<ContentTables>;

  constructor(database: Database<ContentTables>) {
    this.#database = database;
  }

  /** The earliest `searchable_from` of any shop (ISO 8601 UTC); undefined when no article waits for a date. */
  async next(): Promise<string | undefined> {
    const row = await this.#database.db
      .selectFrom('content_waiting_articles')
      .select((eb) => eb.fn.min('searchable_from').as('next'))
      .where('searchable_from', 'is not', null)
      .executeTakeFirst();
    return row?.next ?? undefined;
  }

  /** Whether the article `articleId` (`<shopId>:<supplierArticleId>`) is kept not searchable. */
  async has(articleId: string): Promise<boolean> {
    const row = await this.#database.db
      .selectFrom('content_waiting_articles')
      .select('article_id')
      .where('article_id', '=', articleId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Up to `limit` articles whose `searchable_from` is at or before `now`, earliest first. */
  async due(now: Date, limit: number): Promise<WaitingArticle[]> {
    const rows = await this.#database.db
      .selectFrom('content_waiting_articles')
      .selectAll()
      .where('searchable_from', '<=', now.toISOString())
      .orderBy('searchable_from')
      .orderBy('article_id')
      .limit(limit)
      .execute();
    return rows.map(waitingOf);
  }
}
