import type { ImportRun } from '../model/import-run.js';
import type { CatalogHeader } from '../model/catalog-header.js';

/** A recorded import as `GET /admin/business-shops/{shopId}/imports` lists it (times ISO 8601, UTC). */
export function presentImportRun(run: ImportRun) {
  const { counts } = run;
  return {
    runNo: run.runNo,
    shopId: run.shopId,
    fileName: run.fileName,
    format: run.format,
    mode: run.mode,
    startedAt: new Date(run.startedAt).toISOString(),
    finishedAt: new Date(run.finishedAt).toISOString(),
    outcome: run.outcome,
    refusal: run.refusal,
    counts: {
      records: counts.records,
      imported: counts.imported,
      added: counts.added,
      updated: counts.updated,
      deleted: counts.deleted,
      alreadyAbsent: counts.alreadyAbsent,
      refused: counts.refused,
    },
    refusedRecords: run.refusedRecords.map((r) => ({
      line: r.line,
      supplierArticleId: r.supplierArticleId ?? null,
      reason: r.reason,
    })),
    refusedNotListed: Math.max(0, counts.refused - run.refusedRecords.length),
    warnings: run.warnings.map((w) => ({
      kind: w.kind,
      path: w.path,
      count: w.count,
      line: w.line,
      message: w.message,
    })),
    decisions:
      run.decisions === null
        ? null
        : {
            defaultTaxUsed: run.decisions.defaultTaxUsed,
            priceTypesUsed: Object.fromEntries(Object.entries(run.decisions.priceTypesUsed)),
          },
    catalog: run.catalog === null ? null : presentCatalogHeader(run.catalog),
  };
}

/** The header's members, each null when the file did not give it. */
export function presentCatalogHeader(header: CatalogHeader) {
  return {
    catalogId: header.catalogId ?? null,
    catalogVersion: header.catalogVersion ?? null,
    catalogName: header.catalogName ?? null,
    generationDate: header.generationDate ?? null,
    supplierId: header.supplierId ?? null,
    supplierName: header.supplierName ?? null,
    buyerName: header.buyerName ?? null,
    generatorInfo: header.generatorInfo ?? null,
  };
}

/** The JSON of one recorded import. */
export type ImportRunReply = ReturnType<typeof presentImportRun>;
