import { sql } from 'kysely';
import type { WaitingArticle } from '../../model/waiting-article.js';
import { waitingOf, type WaitingRows } from '../waiting-rows.js';
import type { SqlExecutor } from './sql-executor.js';

/** Waiting articles written per insert statement. */
const PUT_BATCH = 500;

/** `WaitingRows` in a PostgreSQL transaction: puts are written in batches (one statement each). */
export class PostgresWaitingRows implements WaitingRows {
  readonly #trx: SqlExecutor;
  #pending = new Map<string, WaitingArticle>();

  constructor(trx: SqlExecutor) {
    this.#trx = trx;
  }

  async ids(shopId: string): Promise<Set<string>> {
    await this.flush();
    const { rows } = await sql<{ id: string }>`
      select article_id as id from content_waiting_articles where shop_id = ${shopId}`.execute(this.#trx);
    return new Set(rows.map((r) => r.id));
  }

  async put(article: WaitingArticle): Promise<void> {
    // A later put of the same id replaces the earlier one still pending (one statement cannot upsert a row twice).
    this.#pending.delete(article.id);
    this.#pending.set(article.id, article);
    if (this.#pending.size >= PUT_BATCH) await this.flush();
  }

  async find(shopId: string, articleId: string): Promise<WaitingArticle | undefined> {
    await this.flush();
    const { rows } = await sql<Parameters<typeof waitingOf>[0]>`
      select * from content_waiting_articles where shop_id = ${shopId} and article_id = ${articleId}`.execute(
      this.#trx,
    );
    return rows[0] && waitingOf(rows[0]);
  }

  async remove(shopId: string, articleId: string): Promise<boolean> {
    await this.flush();
    const result = await sql`
      delete from content_waiting_articles where shop_id = ${shopId} and article_id = ${articleId}`.execute(this.#trx);
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  async clear(shopId: string): Promise<number> {
    this.#pending.clear();
    const result = await sql`delete from content_waiting_articles where shop_id = ${shopId}`.execute(this.#trx);
    return Number(result.numAffectedRows ?? 0);
  }

  async flush(): Promise<void> {
    if (this.#pending.size === 0) return;
    const rows = [...this.#pending.values()];
    this.#pending = new Map();
    await sql`insert into content_waiting_articles (shop_id, article_id, document, searchable_from, reason)
      select * from unnest(${rows.map((r) => r.shopId)}::text[], ${rows.map((r) => r.id)}::text[],
        ${rows.map((r) => r.document)}::text[], ${rows.map((r) => r.searchableFrom)}::text[],
        ${rows.map((r) => r.reason)}::text[])
      on conflict (shop_id, article_id) do update set document = excluded.document,
        searchable_from = excluded.searchable_from, reason = excluded.reason`.execute(this.#trx);
  }
}
