import type { Database } from '@triad/db';
import { isUniqueViolation } from '@triad/db';
import type { Kysely, Selectable } from 'kysely';
import type { CatalogHeader } from '../model/catalog-header.js';
import {
  WARNINGS_KEPT,
  type ImportDecisions,
  type ImportRun,
  type ImportWarning,
  type NewImportRun,
  type RefusedRecord,
} from '../model/import-run.js';
import type { ContentTables, ImportRunsTable } from '../migrations/content-tables.js';

/** Runs kept per shop; recording one more deletes the oldest. */
export const IMPORT_RUNS_KEPT = 50;

/** Refused records kept per run (the count of all of them is kept too). */
export const REFUSED_RECORDS_KEPT = 100;

/** Attempts at numbering a run when another process recorded one for the same shop at once. */
const NUMBERING_ATTEMPTS = 5;

/**
 * `content_import_runs`: the newest catalog imports of each shop, newest first. Works through
 * the database's own Kysely connection on both engines (the SQLite search backend's write
 * connection is not needed: a run is recorded after its import has committed or rolled back).
 */
export class ImportRunRepository {
  readonly #db: Kysely<ContentTables>;
  readonly #kept: number;

  /** `runsKept`: runs kept per shop (default `IMPORT_RUNS_KEPT`). */
  constructor(database: Database<ContentTables>, options: { readonly runsKept?: number } = {}) {
    this.#db = database.db;
    this.#kept = options.runsKept ?? IMPORT_RUNS_KEPT;
  }

  /**
   * Records a run as the shop's next (its `runNo`), keeping its first `REFUSED_RECORDS_KEPT`
   * refused records, and deletes the shop's runs older than the newest `runsKept`.
   */
  async record(run: NewImportRun): Promise<ImportRun> {
    const refusedRecords = run.refusedRecords.slice(0, REFUSED_RECORDS_KEPT);
    const warnings = run.warnings.slice(0, WARNINGS_KEPT);
    for (let attempt = 1; ; attempt += 1) {
      const last = await this.#db
        .selectFrom('content_import_runs')
        .select((eb) => eb.fn.max('run_no').as('last'))
        .where('shop_id', '=', run.shopId)
        .executeTakeFirst();
      const runNo = Number(last?.last ?? 0) + 1;
      try {
        await this.#db
          .insertInto('content_import_runs')
          .values({
            shop_id: run.shopId,
            run_no: runNo,
            file_name: run.fileName,
            format: run.format,
            import_mode: run.mode,
            started_at: run.startedAt,
            finished_at: run.finishedAt,
            outcome: run.outcome,
            refusal: run.refusal,
            records: run.counts.records,
            imported: run.counts.imported,
            added: run.counts.added,
            updated: run.counts.updated,
            deleted: run.counts.deleted,
            already_absent: run.counts.alreadyAbsent,
            refused: run.counts.refused,
            refused_records: JSON.stringify(refusedRecords),
            warnings: JSON.stringify(warnings),
            decisions: run.decisions === null ? null : JSON.stringify(run.decisions),
            catalog: run.catalog === null ? null : JSON.stringify(run.catalog),
          })
          .execute();
      } catch (error) {
        // Another process took this number between the two statements: take the next one.
        if (isUniqueViolation(error) && attempt < NUMBERING_ATTEMPTS) continue;
        throw error;
      }
      await this.#db
        .deleteFrom('content_import_runs')
        .where('shop_id', '=', run.shopId)
        .where('run_no', '<=', runNo - this.#kept)
        .execute();
      return { ...run, refusedRecords, warnings, runNo };
    }
  }

  /** The shop's kept runs, newest first (empty for a shop never imported into). */
  async list(shopId: string): Promise<readonly ImportRun[]> {
    const rows = await this.#db
      .selectFrom('content_import_runs')
      .selectAll()
      .where('shop_id', '=', shopId)
      .orderBy('run_no', 'desc')
      .execute();
    return rows.map(toImportRun);
  }
}

function toImportRun(row: Selectable<ImportRunsTable>): ImportRun {
  return {
    shopId: row.shop_id,
    runNo: Number(row.run_no),
    fileName: row.file_name,
    format: row.format,
    mode: row.import_mode,
    startedAt: Number(row.started_at),
    finishedAt: Number(row.finished_at),
    outcome: row.outcome,
    refusal: row.refusal,
    counts: {
      records: Number(row.records),
      imported: Number(row.imported),
      added: row.added === null ? null : Number(row.added),
      updated: row.updated === null ? null : Number(row.updated),
      deleted: Number(row.deleted),
      alreadyAbsent: Number(row.already_absent),
      refused: Number(row.refused),
    },
    refusedRecords: JSON.parse(row.refused_records) as RefusedRecord[],
    warnings: JSON.parse(row.warnings) as ImportWarning[],
    decisions: row.decisions === null ? null : (JSON.parse(row.decisions) as ImportDecisions),
    catalog: row.catalog === null ? null : (JSON.parse(row.catalog) as CatalogHeader),
  };
}
