import type { ColumnType, Generated, GeneratedAlways } from 'kysely';
import type { ArticleRow } from '../article-row.js';
import type { ContentTables } from '../content-tables.js';

/**
 * Kysely view of the article tables PostgreSQL's migrations add (`postgres-*-migration.ts`), for
 * the queries the backend and the catalog writer build; searches and facet counts are raw SQL and
 * name their own row types.
 */
export type PostgresArticleTables = {
  content_articles: ArticleRow & {
    seq: Generated<string>;
    search_vector: GeneratedAlways<string>;
  };
  content_facet_counts: {
    shop_id: string;
    facet_name: string;
    value: string;
    /** `bigint`: read as a string, written as a number. */
    article_count: ColumnType<string, number, number>;
  };
};

/** Every table of a PostgreSQL content store. */
export type PostgresContentTables = ContentTables & PostgresArticleTables;
