import { pathToFileURL } from 'node:url';
import type { Problem, ValidationResult } from '../problem.js';
import { problemCatalogue } from '../errors.js';

/** Output formats of `triad templates validate`. */
export const REPORT_FORMATS = ['text', 'json', 'sarif', 'junit'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/**
 * Where SARIF's `informationUri` and `helpUri` point: the Markdown documents shipped in the
 * repository's `docs/`, as absolute `file:` URIs of this installation (the same four levels up from
 * `src/cli/` and `dist/cli/`). Code-scanning tools need absolute URIs; the project has no public
 * documentation site, and these resolve wherever the report was made.
 */
export const DOCS_URIS = Object.freeze({
  /** The device-template reference. */
  information: new URL('../../../../docs/device-templates.md', import.meta.url).href,
  /** Every error code, with an anchor per code (`#dt_err_schema_required`). */
  errors: new URL('../../../../docs/errors.md', import.meta.url).href,
});

/** How a report is rendered beyond its format. */
export interface ReportOptions {
  /** Text format: leave out the `<file>: valid` lines; problems and the summary stay. */
  readonly quiet?: boolean;
  /**
   * Directory the results' relative file names start from (the command's working directory); SARIF
   * names it as `%SRCROOT%`, so tools can find the files. Default: the process's working directory.
   */
  readonly baseDirectory?: string;
}

/** Totals over a validation run. */
export interface ValidationSummary {
  readonly files: number;
  readonly valid: number;
  readonly invalid: number;
  readonly errors: number;
  readonly warnings: number;
}

export function summarize(results: readonly ValidationResult[]): ValidationSummary {
  let valid = 0;
  let errors = 0;
  let warnings = 0;
  for (const r of results) {
    if (r.valid) valid++;
    errors += r.errors.length;
    warnings += r.warnings.length;
  }
  return { files: results.length, valid, invalid: results.length - valid, errors, warnings };
}

/** Renders results in one of the report formats. The text is complete (ends with a newline). */
export function renderReport(
  format: ReportFormat,
  results: readonly ValidationResult[],
  toolVersion: string,
  options: ReportOptions = {},
): string {
  switch (format) {
    case 'text':
      return renderText(results, options.quiet ?? false);
    case 'json':
      return JSON.stringify({ summary: summarize(results), results: results.map(plainResult) }, null, 2) + '\n';
    case 'sarif':
      return JSON.stringify(renderSarif(results, toolVersion, options.baseDirectory ?? process.cwd()), null, 2) + '\n';
    case 'junit':
      return renderJunit(results);
  }
}

function plainResult(r: ValidationResult): ValidationResult {
  return { valid: r.valid, file: r.file, errors: r.errors, warnings: r.warnings };
}

/**
 * `file:line:column: severity message [code]` lines, like a compiler, then a summary line; with
 * several files and not `quiet`, a `<file>: valid` line for each file without problems.
 */
function renderText(results: readonly ValidationResult[], quiet: boolean): string {
  const lines: string[] = [];
  for (const r of results) {
    const problems = [...r.errors, ...r.warnings].sort((a, b) => a.line - b.line || a.column - b.column);
    for (const p of problems) {
      const where = p.line > 0 ? `${r.file}:${p.line}:${p.column}` : r.file;
      lines.push(`${where}: ${p.severity}: ${p.message} [${p.code}]${p.path ? ` at ${p.path}` : ''}`);
      if (p.suggestion && !p.message.includes(p.suggestion)) lines.push(`  hint: ${p.suggestion}`);
    }
    if (problems.length === 0 && results.length > 1 && !quiet) lines.push(`${r.file}: valid`);
  }
  const s = summarize(results);
  lines.push(
    `${s.files} file${s.files === 1 ? '' : 's'} checked: ${s.valid} valid, ${s.invalid} invalid; ` +
      `${s.errors} error${s.errors === 1 ? '' : 's'}, ${s.warnings} warning${s.warnings === 1 ? '' : 's'}`,
  );
  return lines.join('\n') + '\n';
}

/**
 * SARIF 2.1.0, one run, one rule per code that occurs. File locations are relative URIs against
 * `%SRCROOT%` (the absolute `file:` URI of `baseDirectory`); standard input is `stdin`.
 */
function renderSarif(results: readonly ValidationResult[], toolVersion: string, baseDirectory: string): unknown {
  const codes = new Set<string>();
  for (const r of results) for (const p of [...r.errors, ...r.warnings]) codes.add(p.code);
  const rules = [...codes].sort().map((code) => ({
    id: code,
    shortDescription: { text: problemCatalogue[code]?.title ?? code },
    helpUri: `${DOCS_URIS.errors}#${code.toLowerCase()}`,
  }));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: { name: 'triad-templates', version: toolVersion, informationUri: DOCS_URIS.information, rules },
        },
        originalUriBaseIds: { SRCROOT: { uri: directoryUri(baseDirectory) } },
        results: results.flatMap((r) =>
          [...r.errors, ...r.warnings].map((p) => ({
            ruleId: p.code,
            level: p.severity === 'error' ? 'error' : 'warning',
            message: { text: p.message },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: artifactLocation(r.file),
                  ...(p.line > 0 ? { region: { startLine: p.line, startColumn: p.column } } : {}),
                },
                logicalLocations: [{ fullyQualifiedName: p.path || '/', kind: 'element' }],
              },
            ],
          })),
        ),
      },
    ],
  };
}

/** `file:` URI of a directory, ending in `/` as SARIF requires of a base. */
function directoryUri(directory: string): string {
  const href = pathToFileURL(directory).href;
  return href.endsWith('/') ? href : `${href}/`;
}

/** A result file as a SARIF artifact location: a relative URI against `%SRCROOT%`, or an absolute `file:` URI. */
function artifactLocation(file: string): { uri: string; uriBaseId?: string } {
  if (file === '<stdin>') return { uri: 'stdin' };
  const slashed = file.split('\\').join('/');
  if (slashed.startsWith('/')) return { uri: pathToFileURL(file).href };
  return { uri: slashed.split('/').map(encodeURIComponent).join('/'), uriBaseId: 'SRCROOT' };
}

/** JUnit XML: one test case per file; errors are failures, warnings go to system-out. */
function renderJunit(results: readonly ValidationResult[]): string {
  const s = summarize(results);
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="triad templates validate" tests="${s.files}" failures="${s.invalid}">`);
  out.push(`  <testsuite name="device templates" tests="${s.files}" failures="${s.invalid}" errors="0" skipped="0">`);
  for (const r of results) {
    out.push(`    <testcase classname="device-templates" name="${xml(r.file)}">`);
    if (!r.valid) {
      const message = xml(`${r.errors.length} error(s)`);
      const body = xml(r.errors.map((p) => line(r.file, p)).join('\n'));
      out.push(`      <failure message="${message}" type="invalid-template">${body}</failure>`);
    }
    if (r.warnings.length > 0)
      out.push(`      <system-out>${xml(r.warnings.map((p) => line(r.file, p)).join('\n'))}</system-out>`);
    out.push('    </testcase>');
  }
  out.push('  </testsuite>', '</testsuites>');
  return out.join('\n') + '\n';
}

function line(file: string, p: Problem): string {
  return `${file}:${p.line}:${p.column}: ${p.severity}: ${p.message} [${p.code}]`;
}

function xml(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}
