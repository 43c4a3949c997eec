import type { ColumnDefinitionBuilder, CreateTableBuilder } from 'kysely';

/**
 * Adds the engine-neutral columns of `content_articles` (see `ArticleRow`) to a table whose
 * engine-specific key column was already added.
 */
export function addArticleColumns<T extends string>(table: CreateTableBuilder<T, never>): CreateTableBuilder<T, never> {
  const notNull = (c: ColumnDefinitionBuilder) => c.notNull();
  return table
    .addColumn('article_id', 'text', (c) => c.notNull().unique())
    .addColumn('shop_id', 'text', notNull)
    .addColumn('manufacturer_name', 'text')
    .addColumn('description', 'text', notNull)
    .addColumn('price_scaled', 'bigint', notNull)
    .addColumn('price_incl_scaled', 'bigint', notNull)
    .addColumn('unspsc7', 'text')
    .addColumn('unspsc9', 'text')
    .addColumn('search_text', 'text', notNull)
    .addColumn('document', 'text', notNull);
}
