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
    /** Groups of the classification facets added by migration 0010 (`ArticleIndexFields`). */
    unspsc: string | null;
    eclass: string | null;
    etim: string | null;
    /** `ArticleIndexFields.groupNames` as JSON, null when the catalog gave no name. */
    group_names: string | null;
  };
  /** An article's price members and indexed prices, where a price delta put them (migration 0019). */
  content_article_prices: {
    seq: string;
    /** `documentPricesText` of the article's document. */
    prices: string;
    price_scaled: number;
    price_incl_scaled: number;
  };
};

/** Every table of a PostgreSQL content store. */
export type PostgresContentTables = ContentTables & PostgresArticleTables;
