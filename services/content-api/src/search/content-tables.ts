/**
 * Kysely view of the tables both engines lay out alike (migration 0001): the table map of every
 * content store (`Database<ContentTables>`). The article tables belong to the engine: PostgreSQL's
 * are `PostgresArticleTables`; SQLite's backend reads them over its own connections.
 */
export interface ContentTables {
  content_shops: {
    shop_id: string;
    name: string;
    /** The shop's JSON document. */
    document: string;
  };
  content_meta: {
    meta_key: string;
    /** `current_hash`: the current content version. */
    meta_value: string;
  };
}
