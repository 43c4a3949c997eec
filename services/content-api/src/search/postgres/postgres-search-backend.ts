import { sql } from 'kysely';
import { SqlSearchBackend, type TextMatch } from '../sql-search-backend.js';

/** PostgreSQL search: generated tsvector + GIN; all words must match, score is `ts_rank`. */
export class PostgresSearchBackend extends SqlSearchBackend {
  readonly engine = 'postgres-tsvector';

  protected textMatch(words: readonly string[]): TextMatch {
    const query = sql`plainto_tsquery('simple', ${words.join(' ')})`;
    return {
      from: sql`content_articles a`,
      where: sql`a.search_vector @@ ${query}`,
      score: sql`ts_rank(a.search_vector, ${query})`,
    };
  }

  // The generated column and its GIN index follow every insert and delete.
  protected async reindex(): Promise<void> {}
  protected async unindexShop(): Promise<void> {}
  protected async indexShop(): Promise<void> {}
}
