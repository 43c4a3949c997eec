import type { ImportFailure, ImportResult } from '../commands/import-catalog.js';
import { importOutcome } from '../commands/import-and-record.js';
import type { CatalogFormat } from '../model/catalog-format.js';
import { presentCatalogHeader } from './import-run-presenter.js';

/** What `triad catalog check` reports of one file: what an import would do, nothing written. */
export interface CatalogCheck {
  /** The file as given (`-` for standard input). */
  readonly file: string;
  readonly format: CatalogFormat;
  /** The shop checked against; null: a new shop with the default settings. */
  readonly shopId: string | null;
  readonly result: ImportResult;
}

/** Members of an import's result the check shows in their own places; any other member is a decision. */
const SHOWN = new Set([
  'committed',
  'refusal',
  'imported',
  'added',
  'updated',
  'deleted',
  'alreadyAbsent',
  'mode',
  'records',
  'failed',
  'failedNotListed',
  'warnings',
  'notSearchable',
  'hash',
  'catalog',
]);

/** What the import decided for the file (price types taken, default tax used ...): every other member of its result. */
export function decisionsOf(result: ImportResult): Record<string, unknown> {
  return Object.fromEntries(Object.entries(result).filter(([key]) => !SHOWN.has(key)));
}

/** A refused record as the check lists it. */
function presentFailure(f: ImportFailure) {
  return {
    line: f.line,
    supplierArticleId: f.supplierArticleId ?? null,
    violations: f.violations.map((v) => ({ path: v.path, message: v.message })),
  };
}

/** `--format json`: the check as one JSON document. */
export function presentCatalogCheck(check: CatalogCheck) {
  const { result } = check;
  return {
    file: check.file,
    format: check.format,
    shopId: check.shopId,
    mode: result.mode,
    ...importOutcome(result),
    refusedRecords: result.failed.map(presentFailure),
    refusedNotListed: result.failedNotListed,
    notSearchable: result.notSearchable,
    warnings: result.warnings.map((w) => ({
      kind: w.kind,
      path: w.path,
      count: w.count,
      line: w.line,
      message: w.message,
    })),
    decisions: decisionsOf(result),
    catalog: result.catalog === null ? null : presentCatalogHeader(result.catalog),
  };
}

/** The rule of a refused record in SARIF. */
export const REFUSED_RECORD_RULE = 'refused-record';
/** The rule of a file refused whole. */
export const REFUSED_IMPORT_RULE = 'refused-import';

const RULE_TEXT: Readonly<Record<string, string>> = {
  [REFUSED_RECORD_RULE]: 'A record the import would refuse (skip)',
  [REFUSED_IMPORT_RULE]: 'The import would commit nothing',
  'unkept-element': 'An element of the file that Triad does not keep',
  'feature-name-unresolved': 'A feature named by an id the file does not define, kept under the id',
  'feature-value-unresolved': 'A feature value given by an id the file does not define, kept as the id',
  'feature-without-name': 'A feature without a name, kept with an empty name',
  'repeated-element': 'A single-valued element given again in one parent: only the first is imported',
};

/**
 * `--format sarif`: SARIF 2.1.0, one result per refused record (error) and per warning, each with
 * the line it starts on; one rule per kind. A file refused whole is one more error.
 */
export function presentCatalogCheckSarif(check: CatalogCheck) {
  const { result } = check;
  const location = (line: number) => ({
    physicalLocation: {
      artifactLocation: { uri: check.file },
      ...(line >= 1 ? { region: { startLine: line } } : {}),
    },
  });
  const results = [
    ...result.failed.map((f) => ({
      ruleId: REFUSED_RECORD_RULE,
      level: 'error',
      message: {
        text:
          (f.supplierArticleId !== undefined ? `${f.supplierArticleId}: ` : '') +
          f.violations.map((v) => (v.path ? `${v.path}: ${v.message}` : v.message)).join('; '),
      },
      locations: [location(f.line)],
    })),
    ...result.warnings.map((w) => ({
      ruleId: w.kind,
      level: 'warning',
      message: { text: `${w.path ? `${w.path}: ` : ''}${w.message}` },
      locations: [location(w.line)],
    })),
    ...(result.committed
      ? []
      : [{ ruleId: REFUSED_IMPORT_RULE, level: 'error', message: { text: result.refusal }, locations: [location(0)] }]),
  ];
  const rules = [...new Set(results.map((r) => r.ruleId))].map((id) => ({
    id,
    shortDescription: { text: RULE_TEXT[id] ?? id },
  }));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'triad catalog check', rules } },
        artifacts: [{ location: { uri: check.file } }],
        results,
      },
    ],
  };
}
