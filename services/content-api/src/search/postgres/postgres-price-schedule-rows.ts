import { sql } from 'kysely';
import type { PriceSchedule } from '../../model/price-schedule.js';
import type { PriceScheduleRows } from '../price-schedule-rows.js';
import type { SqlExecutor } from './sql-executor.js';

/** Rows written or removed per statement. */
const BATCH = 500;

/** `PriceScheduleRows` in a PostgreSQL transaction: puts and removes are written in batches (one statement each). */
export class PostgresPriceScheduleRows implements PriceScheduleRows {
  readonly #trx: SqlExecutor;
  #puts = new Map<string, { readonly shopId: string; readonly schedule: PriceSchedule }>();
  #removes = new Map<string, string>();

  constructor(trx: SqlExecutor) {
    this.#trx = trx;
  }

  async dueAts(shopId: string): Promise<Map<string, string>> {
    await this.flush();
    const { rows } = await sql<{ id: string; due: string }>`
      select article_id as id, due_at as due from content_price_schedule where shop_id = ${shopId}`.execute(this.#trx);
    return new Map(rows.map((r) => [r.id, r.due]));
  }

  async document(shopId: string, articleId: string): Promise<string | undefined> {
    await this.flush();
    const { rows } = await sql<{ document: string }>`
      select document from content_price_schedule where shop_id = ${shopId} and article_id = ${articleId}`.execute(
      this.#trx,
    );
    return rows[0]?.document;
  }

  async put(shopId: string, articleId: string, schedule: PriceSchedule): Promise<void> {
    this.#removes.delete(articleId);
    this.#puts.delete(articleId);
    this.#puts.set(articleId, { shopId, schedule });
    if (this.#puts.size >= BATCH) await this.flush();
  }

  async remove(shopId: string, articleId: string): Promise<void> {
    this.#puts.delete(articleId);
    this.#removes.set(articleId, shopId);
    if (this.#removes.size >= BATCH) await this.flush();
  }

  async clear(shopId: string): Promise<void> {
    this.#puts.clear();
    this.#removes.clear();
    await sql`delete from content_price_schedule where shop_id = ${shopId}`.execute(this.#trx);
  }

  async flush(): Promise<void> {
    if (this.#removes.size > 0) {
      const removes = [...this.#removes];
      this.#removes = new Map();
      await sql`delete from content_price_schedule where (shop_id, article_id) in (
        select * from unnest(${removes.map((r) => r[1])}::text[], ${removes.map((r) => r[0])}::text[]))`.execute(
        this.#trx,
      );
    }
    if (this.#puts.size === 0) return;
    const puts = [...this.#puts];
    this.#puts = new Map();
    await sql`insert into content_price_schedule (shop_id, article_id, document, due_at)
      select * from unnest(${puts.map((p) => p[1].shopId)}::text[], ${puts.map((p) => p[0])}::text[],
        ${puts.map((p) => p[1].schedule.document)}::text[], ${puts.map((p) => p[1].schedule.dueAt)}::text[])
      on conflict (shop_id, article_id) do update set document = excluded.document,
        due_at = excluded.due_at`.execute(this.#trx);
  }
}
