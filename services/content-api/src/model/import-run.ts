import type { CatalogFormat } from './catalog-format.js';
import type { ImportMode } from './import-mode.js';
import type { CatalogHeader } from './catalog-header.js';

/**
 * How an import ended: `committed` with every record taken, `committed-with-refusals` with some
 * records skipped, or `refused` with nothing committed (too many refused records, a malformed
 * file, a mode the file contradicts, a busy store).
 */
export type ImportOutcome = 'committed' | 'committed-with-refusals' | 'refused';

export const IMPORT_OUTCOMES: readonly ImportOutcome[] = ['committed', 'committed-with-refusals', 'refused'];

/** A record an import did not take: the 1-based line it starts on and why. */
export interface RefusedRecord {
  readonly line: number;
  readonly reason: string;
  /** The record's supplier article id, when it has one (runs recorded before it was kept have none). */
  readonly supplierArticleId?: string;
}

/**
 * Something an import did that the file's author should know, though nothing was refused for it:
 * elements of the file Triad does not keep (`unkept-element`), and what the reader kept in
 * another form than the file gave it (`feature-name-unresolved`, `feature-value-unresolved`,
 * `feature-without-name`). Counted per kind and path across the file.
 */
export interface ImportWarning {
  /** What happened, in stable words (for rules and filters): `unkept-element`, `feature-name-unresolved` ... */
  readonly kind: string;
  /** Where in the file: a BMEcat element path (`ARTICLE/ARTICLE_DETAILS/SEGMENT`); `''` for the whole file. */
  readonly path: string;
  /** How many times it happened. */
  readonly count: number;
  /** 1-based line of the first time. */
  readonly line: number;
  /** What happened, in the file's words. */
  readonly message: string;
}

/** Warnings kept per run (their counts cover the whole file). */
export const WARNINGS_KEPT = 200;

/**
 * How an import took the file's prices, as `triad catalog check` reports them: the records whose
 * prices gave no tax and took the shop's default tax, and the records by the BMEcat price type
 * their prices were taken from (the shop's preferred price types chose).
 */
export interface ImportDecisions {
  readonly defaultTaxUsed: number;
  readonly priceTypesUsed: Readonly<Record<string, number>>;
}

/** What an import did, record by record. */
export interface ImportRunCounts {
  /** Records read (taken and refused). */
  readonly records: number;
  /** Articles stored: a replacement's whole catalog, or a delta's added and updated ones. */
  readonly imported: number;
  /** Articles a delta added; null for a replacement, which does not tell added from updated. */
  readonly added: number | null;
  /** Articles a delta replaced or whose prices it changed; null for a replacement. */
  readonly updated: number | null;
  readonly deleted: number;
  /** Deletes naming an article the shop did not hold. */
  readonly alreadyAbsent: number;
  /** Records refused (all of them, also those beyond `refusedRecords`). */
  readonly refused: number;
}

/** One catalog import as it is recorded. */
export interface NewImportRun {
  readonly shopId: string;
  /** The file's name (without its directory), or `-` for standard input. */
  readonly fileName: string;
  readonly format: CatalogFormat;
  /** What the import did; null when the file contradicted the mode asked for. */
  readonly mode: ImportMode | null;
  /** ms since the epoch. */
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly outcome: ImportOutcome;
  /** Why nothing was committed; null unless `outcome` is `refused`. */
  readonly refusal: string | null;
  readonly counts: ImportRunCounts;
  /** The first refused records, by line (at most `REFUSED_RECORDS_KEPT` are kept). */
  readonly refusedRecords: readonly RefusedRecord[];
  /** What the file held that Triad does not keep, or kept in another form (at most `WARNINGS_KEPT`). */
  readonly warnings: readonly ImportWarning[];
  /** How the import took the file's prices; null for runs recorded before Triad kept them. */
  readonly decisions: ImportDecisions | null;
  /**
   * BMEcat: which catalog the file was and who sent it, as its header said; null for JSON Lines,
   * a file refused before its header was read, and runs recorded before Triad kept it.
   */
  readonly catalog: CatalogHeader | null;
}

/** A recorded import: `runNo` counts the shop's imports from 1. */
export interface ImportRun extends NewImportRun {
  readonly runNo: number;
}
