import { sql, type Transaction } from 'kysely';
import { SqlSearchBackend, type TextMatch } from '../sql-search-backend.js';

/** SQLite FTS5 search: words are quoted FTS5 phrases (all must match), score is `-bm25`. */
export class SqliteSearchBackend extends SqlSearchBackend {
  readonly engine = 'sqlite-fts5';

  protected textMatch(words: readonly string[]): TextMatch {
    // Quoted, so FTS5 operators (AND, NEAR, column filters) in user text stay plain words.
    const expression = words.map((w) => `"${w.replaceAll('"', '""')}"`).join(' ');
    return {
      // CROSS JOIN keeps the FTS index as the driving table; otherwise a shop or price index may be scanned first.
      from: sql`content_articles_fts f cross join content_articles a on a.seq = f.rowid`,
      where: sql`content_articles_fts match ${expression}`,
      score: sql`-bm25(content_articles_fts)`,
    };
  }

  protected async unindexShop(trx: Transaction<unknown>, shopId: string): Promise<void> {
    // External-content FTS5 tables forget a row only when told its old text.
    await sql`insert into content_articles_fts(content_articles_fts, rowid, search_text) select 'delete', seq, search_text from content_articles where shop_id = ${shopId}`.execute(trx);
  }

  protected async indexShop(trx: Transaction<unknown>, shopId: string): Promise<void> {
    await sql`insert into content_articles_fts(rowid, search_text) select seq, search_text from content_articles where shop_id = ${shopId}`.execute(trx);
  }

  protected async reindex(trx: Transaction<unknown>): Promise<void> {
    await sql`insert into content_articles_fts(content_articles_fts) values ('rebuild')`.execute(trx);
  }
}
