import type { ArticleRow } from '../article-row.js';
import type { ContentTables } from '../../migrations/content-tables.js';

/**
 * Kysely view of the article table PostgreSQL's migrations add (`postgres-*-migration.ts`), for
 * the few queries built with Kysely; segments, postings and searches are raw SQL and name their
 * own row types.
 */
export type PostgresArticleTables = {
  content_articles: ArticleRow & {
    /** `slot * 2^32 + position` (decision 0025); `bigint`, read as a string. */
    seq: string;
  };
};

/** Every table of a PostgreSQL content store. */
export type PostgresContentTables = ContentTables & PostgresArticleTables;
