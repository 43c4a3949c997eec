import type { Database } from '@triad/db';
import type { ContentTables } from '../migrations/content-tables.js';
import { scheduledOf, type ScheduledArticle } from '../model/price-schedule.js';

/**
 * Reads the price dates of searchable articles (`content_price_schedule`, decision 0033) for the
 * price timer: the next one, and those due. Writes go through the search backend
 * (`applyShopDelta`, the imports), in its transactions.
 */
export class PriceScheduleRepository {
  readonly #database: Database<ContentTables>;

  constructor(database: Database<ContentTables>) {
    this.#database = database;
  }

  /** The earliest `due_at` of any shop (ISO 8601 UTC); undefined when no article has one. */
  async next(): Promise<string | undefined> {
    const row = await this.#database.db
      .selectFrom('content_price_schedule')
      .select((eb) => eb.fn.min('due_at').as('next'))
      .executeTakeFirst();
    return row?.next ?? undefined;
  }

  /** Up to `limit` articles whose `due_at` is at or before `now`, earliest first. */
  async due(now: Date, limit: number): Promise<ScheduledArticle[]> {
    const rows = await this.#database.db
      .selectFrom('content_price_schedule')
      .selectAll()
      .where('due_at', '<=', now.toISOString())
      .orderBy('due_at')
      .orderBy('article_id')
      .limit(limit)
      .execute();
    return rows.map(scheduledOf);
  }
}
