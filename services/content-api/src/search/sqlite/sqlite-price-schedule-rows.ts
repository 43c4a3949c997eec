import type { Statement } from 'better-sqlite3';
import type { PriceSchedule } from '../../model/price-schedule.js';
import type { PriceScheduleRows } from '../price-schedule-rows.js';

/** The writer's prepared statements (`SqliteCatalogWriter` fits). */
interface StatementSource {
  statement(text: string): Statement;
}

/** `PriceScheduleRows` on the SQLite writer's connection: each call one prepared statement; use inside `exclusive`. */
export class SqlitePriceScheduleRows implements PriceScheduleRows {
  readonly #writer: StatementSource;

  constructor(writer: StatementSource) {
    this.#writer = writer;
  }

  dueAts(shopId: string): Promise<Map<string, string>> {
    const rows = this.#writer
      .statement('select article_id, due_at from content_price_schedule where shop_id = ?')
      .raw()
      .all(shopId) as [string, string][];
    return Promise.resolve(new Map(rows));
  }

  document(shopId: string, articleId: string): Promise<string | undefined> {
    const document = this.#writer
      .statement('select document from content_price_schedule where shop_id = ? and article_id = ?')
      .pluck()
      .get(shopId, articleId) as string | undefined;
    return Promise.resolve(document);
  }

  put(shopId: string, articleId: string, schedule: PriceSchedule): Promise<void> {
    this.putNow(shopId, articleId, schedule);
    return Promise.resolve();
  }

  /** `put`, synchronously. */
  putNow(shopId: string, articleId: string, schedule: PriceSchedule): void {
    this.#writer
      .statement(
        'insert into content_price_schedule (shop_id, article_id, document, due_at) values (?, ?, ?, ?) ' +
          'on conflict (shop_id, article_id) do update set document = excluded.document, due_at = excluded.due_at',
      )
      .run(shopId, articleId, schedule.document, schedule.dueAt);
  }

  remove(shopId: string, articleId: string): Promise<void> {
    this.#writer
      .statement('delete from content_price_schedule where shop_id = ? and article_id = ?')
      .run(shopId, articleId);
    return Promise.resolve();
  }

  clear(shopId: string): Promise<void> {
    this.clearNow(shopId);
    return Promise.resolve();
  }

  /** `clear`, synchronously. */
  clearNow(shopId: string): void {
    this.#writer.statement('delete from content_price_schedule where shop_id = ?').run(shopId);
  }

  async flush(): Promise<void> {}
}
