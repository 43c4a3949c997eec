import type { PriceSchedule } from '../model/price-schedule.js';

/**
 * A shop's searchable articles whose prices may change at a date (`content_price_schedule`,
 * migration 0013), inside a writing transaction of the store: one implementation per engine.
 * Writes may be buffered until `flush` (and are flushed before any read).
 */
export interface PriceScheduleRows {
  /** The shop's scheduled articles: id -> `due_at`. */
  dueAts(shopId: string): Promise<Map<string, string>>;
  /** The record kept for the article's price dates, if any. */
  document(shopId: string, articleId: string): Promise<string | undefined>;
  /** Stores or replaces the schedule of an article. */
  put(shopId: string, articleId: string, schedule: PriceSchedule): Promise<void>;
  /** Removes the schedule of an article (none: nothing happens). */
  remove(shopId: string, articleId: string): Promise<void>;
  /** Removes every schedule of the shop. */
  clear(shopId: string): Promise<void>;
  /** Writes what is buffered. */
  flush(): Promise<void>;
}
