import type { MigrationSet } from '@triad/db';
import type { Migration } from 'kysely';
import { createContent } from './0001-create-content.js';
import { createImportRuns } from './0004-create-import-runs.js';
import { createSigningKeys } from './0006-create-signing-keys.js';
import { addImportRunWarnings } from './0008-add-import-run-warnings.js';
import { createWaitingArticles } from './0009-create-waiting-articles.js';
import { createContentWorkLeases } from './0010-create-work-leases.js';
import { addImportRunDecisions } from './0012-add-import-run-decisions.js';
import { createPriceSchedule } from './0013-create-price-schedule.js';
import { addImportRunCatalog } from './0014-add-import-run-catalog.js';

/** Bookkeeping table of the content API's migrations (services may share one database). */
export const CONTENT_MIGRATION_TABLE = 'content_migrations';

/**
 * The migrations one engine brings with its search backend (`search/postgres/`, `search/sqlite/`):
 * its article table and text index, its search layout of decision 0013, and the engine's own
 * later steps.
 */
export interface EngineMigrations {
  readonly articles: Migration;
  readonly search: Migration;
  readonly segments: MigrationSet;
  readonly later: MigrationSet;
}

/**
 * The content API's migration set for one engine: the shared tables, then the engine's article
 * table and text index, then its search layout, then the import runs, the engine's segments, the
 * signing keys, the engine's later steps (0007 and 0011), the import runs' warnings, the articles
 * kept not searchable, the work leases, the import runs' decisions, the price schedule of searchable
 * articles and the import runs' catalog headers, in the order of their names.
 */
export function contentMigrations(engine: EngineMigrations): MigrationSet {
  return Object.freeze({
    '0001_create_content': createContent,
    '0002_create_articles': engine.articles,
    '0003_search_layout': engine.search,
    '0004_import_runs': createImportRuns,
    ...engine.segments,
    '0006_signing_keys': createSigningKeys,
    ...engine.later,
    '0008_import_run_warnings': addImportRunWarnings,
    '0009_waiting_articles': createWaitingArticles,
    '0010_work_leases': createContentWorkLeases,
    '0012_import_run_decisions': addImportRunDecisions,
    '0013_price_schedule': createPriceSchedule,
    '0014_import_run_catalog': addImportRunCatalog,
  });
}
