import type { Readable } from 'node:stream';
import { errorMessage } from '@triad/common';
import { XmlSyntaxError } from '../import/xml-event-reader.js';
import { CatalogEncodingError } from '../import/xml-encoding.js';
import type { ImportRun, NewImportRun, RefusedRecord } from '../model/import-run.js';
import type { SearchBackend } from '../search/search-backend.js';
import { importCatalog, type ImportCatalogOptions, type ImportFailure, type ImportResult } from './import-catalog.js';
import { ImportModeError } from './resolve-import-mode.js';

/** How an import ended, with its counts, as its recorded run and `triad catalog check` both say. */
export function importOutcome(result: ImportResult): Pick<NewImportRun, 'outcome' | 'refusal' | 'counts'> {
  const refused = result.failed.length + result.failedNotListed;
  return {
    outcome: !result.committed ? 'refused' : refused > 0 ? 'committed-with-refusals' : 'committed',
    refusal: result.committed ? null : result.refusal,
    counts: {
      records: result.records,
      imported: result.imported,
      added: result.committed ? result.added : null,
      updated: result.committed ? result.updated : null,
      deleted: result.committed ? result.deleted : 0,
      alreadyAbsent: result.committed ? result.alreadyAbsent : 0,
      refused,
    },
  };
}

/** Where runs are recorded (`ImportRunRepository` fits). */
export interface ImportRunRecorder {
  record(run: NewImportRun): Promise<ImportRun>;
}

export interface RecordedImportOptions extends ImportCatalogOptions {
  /** The file's name as the run shows it (without its directory; `-` for standard input). */
  readonly fileName: string;
  /** Clock, ms since the epoch; default `Date.now`. */
  readonly now?: () => number;
}

/** An import and its recorded run, or why the run could not be recorded. */
export interface RecordedImport {
  readonly result: ImportResult;
  readonly run: ImportRun | undefined;
  /** Set when recording failed (say a SQLite store another import kept locked); the import stands. */
  readonly recordError?: Error;
}

/**
 * `importCatalog`, then records the run (`runs.record`) whatever its outcome: committed, committed
 * with refused records, or refused whole. An import that throws (malformed BMEcat, a mode the
 * file contradicts, a busy store, a stream error) changed nothing; it is recorded as `refused`
 * with the error's message, then the error is thrown again. Recording is the only write a
 * refused import makes. A failure to record never undoes or hides the import: it is returned
 * as `recordError` (or dropped when the import itself threw).
 *
 * @throws what `importCatalog` throws, after recording the run.
 */
export async function importAndRecord(
  backend: SearchBackend,
  runs: ImportRunRecorder,
  input: Readable,
  options: RecordedImportOptions,
): Promise<RecordedImport> {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const { fileName, now: _clock, ...importOptions } = options;
  const base = { shopId: options.shop.id, fileName, format: options.format, startedAt };
  let result: ImportResult;
  try {
    result = await importCatalog(backend, input, importOptions);
  } catch (error) {
    const failed: NewImportRun = {
      ...base,
      mode: error instanceof ImportModeError ? null : (options.mode ?? null),
      finishedAt: now(),
      outcome: 'refused',
      refusal: refusalOf(error),
      counts: { records: 0, imported: 0, added: null, updated: null, deleted: 0, alreadyAbsent: 0, refused: 0 },
      refusedRecords: [],
      warnings: [],
      decisions: { defaultTaxUsed: 0, priceTypesUsed: {} },
      catalog: null,
    };
    // The import's own error is what the caller must see, even when recording fails too.
    await runs.record(failed).catch(() => {});
    throw error;
  }
  const run: NewImportRun = {
    ...base,
    mode: result.mode,
    finishedAt: now(),
    ...importOutcome(result),
    refusedRecords: result.failed.map(refusedRecord),
    warnings: result.warnings,
    decisions: { defaultTaxUsed: result.defaultTaxUsed, priceTypesUsed: result.priceTypesUsed },
    catalog: result.catalog,
  };
  try {
    return { result, run: await runs.record(run) };
  } catch (error) {
    return { result, run: undefined, recordError: error instanceof Error ? error : new Error(String(error)) };
  }
}

/** A failure as a run keeps it: its line and its violations in one sentence. */
export function refusedRecord(failure: ImportFailure): RefusedRecord {
  const reason = failure.violations.map((v) => (v.path ? `${v.path}: ${v.message}` : v.message)).join('; ');
  const id = failure.supplierArticleId;
  return id === undefined ? { line: failure.line, reason } : { line: failure.line, reason, supplierArticleId: id };
}

function refusalOf(error: unknown): string {
  // Bytes that are no text are no XML error: JSON Lines have them too (`line 2, column 23: byte 0xE9 ...`).
  if (error instanceof CatalogEncodingError) return error.message;
  if (error instanceof XmlSyntaxError) return `malformed XML at line ${error.line}: ${error.reason}`;
  return errorMessage(error);
}
