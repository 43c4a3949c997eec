import type { CatalogFormat } from '../model/catalog-format.js';
import type { ImportMode } from '../model/import-mode.js';
import type { ImportOutcome } from '../model/import-run.js';

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
  content_import_runs: ImportRunsTable;
  content_waiting_articles: WaitingArticlesTable;
  content_price_schedule: PriceScheduleTable;
}

/** `content_price_schedule` (migration 0013): searchable articles whose prices may change at a date. */
export interface PriceScheduleTable {
  shop_id: string;
  article_id: string;
  /** JSON of the record as read (`PriceSchedule.document`). */
  document: string;
  /** ISO 8601 date-time (UTC) the prices taken may change. */
  due_at: string;
}

/** `content_waiting_articles` (migration 0009): articles kept, not searchable until a price is valid. */
export interface WaitingArticlesTable {
  shop_id: string;
  article_id: string;
  /** JSON of the record as read (`WaitingArticle.document`). */
  document: string;
  /** ISO 8601 date-time (UTC) a ladder becomes valid; null: waits for new prices. */
  searchable_from: string | null;
  reason: string;
}

/** PostgreSQL returns `bigint` as a string; SQLite as a number. */
type BigIntColumn = number | string;

/** `content_import_runs` (migration 0004): one row per catalog import, the newest 50 per shop. */
export interface ImportRunsTable {
  shop_id: string;
  /** 1, 2, 3... per shop, in the order the runs were recorded. */
  run_no: number;
  file_name: string;
  format: CatalogFormat;
  /** Null when the file contradicted the mode asked for. */
  import_mode: ImportMode | null;
  /** ms since the epoch. */
  started_at: BigIntColumn;
  finished_at: BigIntColumn;
  outcome: ImportOutcome;
  /** Why nothing was committed (`refused` only). */
  refusal: string | null;
  records: number;
  imported: number;
  /** Null for a replacement, which does not tell added from updated. */
  added: number | null;
  updated: number | null;
  deleted: number;
  already_absent: number;
  refused: number;
  /** JSON array of `{ line, reason }`: the first refused records kept. */
  refused_records: string;
  /** JSON array of `ImportWarning` (migration 0008; `[]` for older runs). */
  warnings: string;
  /** JSON object of `ImportDecisions` (migration 0012; null for older runs). */
  decisions: string | null;
  /** JSON object of `CatalogHeader` (migration 0014; null for JSON Lines and older runs). */
  catalog: string | null;
}
