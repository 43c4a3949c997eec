import type { WaitingArticle } from '../../model/waiting-article.js';
import { waitingOf, type WaitingRows } from '../waiting-rows.js';
import type { Statement } from 'better-sqlite3';

/** The writer's prepared statements (`StatementSource` fits). */
interface StatementSource {
  statement(text: string): Statement;
}

/** `WaitingRows` on the SQLite writer's connection: each call one prepared statement; use inside `exclusive`. */
export class SqliteWaitingRows implements WaitingRows {
  readonly #writer: StatementSource;

  constructor(writer: StatementSource) {
    this.#writer = writer;
  }

  ids(shopId: string): Promise<Set<string>> {
    const ids = this.#writer
      .statement('select article_id from content_waiting_articles where shop_id = ?')
      .pluck()
      .all(shopId) as string[];
    return Promise.resolve(new Set(ids));
  }

  put(article: WaitingArticle): Promise<void> {
    this.putNow(article);
    return Promise.resolve();
  }

  /** `put`, synchronously; false when the id was already stored. */
  putNow(article: WaitingArticle, replace = true): boolean {
    const statement = replace
      ? 'insert into content_waiting_articles (shop_id, article_id, document, searchable_from, reason) ' +
        'values (?, ?, ?, ?, ?) on conflict (shop_id, article_id) do update set document = excluded.document, ' +
        'searchable_from = excluded.searchable_from, reason = excluded.reason'
      : 'insert into content_waiting_articles (shop_id, article_id, document, searchable_from, reason) ' +
        'values (?, ?, ?, ?, ?) on conflict (shop_id, article_id) do nothing';
    const a = article;
    return this.#writer.statement(statement).run(a.shopId, a.id, a.document, a.searchableFrom, a.reason).changes > 0;
  }

  find(shopId: string, articleId: string): Promise<WaitingArticle | undefined> {
    const row = this.#writer
      .statement('select * from content_waiting_articles where shop_id = ? and article_id = ?')
      .get(shopId, articleId) as Parameters<typeof waitingOf>[0] | undefined;
    return Promise.resolve(row && waitingOf(row));
  }

  remove(shopId: string, articleId: string): Promise<boolean> {
    const { changes } = this.#writer
      .statement('delete from content_waiting_articles where shop_id = ? and article_id = ?')
      .run(shopId, articleId);
    return Promise.resolve(changes > 0);
  }

  clear(shopId: string): Promise<number> {
    return Promise.resolve(this.clearNow(shopId));
  }

  /** `clear`, synchronously. */
  clearNow(shopId: string): number {
    return this.#writer.statement('delete from content_waiting_articles where shop_id = ?').run(shopId).changes;
  }

  async flush(): Promise<void> {}
}
