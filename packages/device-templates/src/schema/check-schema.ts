import type { ErrorObject } from 'ajv';
import type { LoadedDocument } from '../loading/loaded-document.js';
import type { DocumentPath, Problem } from '../problem.js';
import { toJsonPointer } from '../problem.js';
import { compareDocumentOrder } from './document-order.js';
import { pointerToPath } from './document-places.js';
import { keywordProblems } from './keyword-problems.js';
import { withoutUndefined, type ProblemDraft } from './problem-draft.js';
import {
  datapointCombination,
  defaultValueRequired,
  severityBands,
  tableAddressRequired,
  timepointBlocks,
  unitsCombination,
  unknownRule,
  valueMapKey,
  valueMapValue,
  type RuleProblems,
} from './rule-problems.js';
import { schemaProblems } from './schema-problems.js';
import { schemaLocationOf, schemaNodeAt } from './schema-locations.js';
import { rawSchemaErrors } from './template-validator.js';

/**
 * The combination rules of the schema, by the location of the schema node that holds the
 * combinator and the combinator keyword. Each builds its one message from the data.
 */
const RULES: Readonly<Record<string, RuleProblems>> = {
  '/definitions/datapoint#anyOf': datapointCombination,
  '/definitions/datapoint#if': timepointBlocks,
  '/definitions/datapointSet#if': tableAddressRequired,
  '/definitions/evaluations#oneOf': severityBands,
  '/definitions/unitsConfig#anyOf': unitsCombination,
  '/definitions/defaultValueConfig#anyOf': defaultValueRequired,
  '/definitions/valueMapEntry/properties/value#oneOf': valueMapValue,
  '/definitions/valueMapEntry/properties/key#oneOf': valueMapKey,
};
/**
 * Combinators whose own failure is not reported: the widget `then` branches validate
 * specificConfig against the widget's own schema, whose errors are already precise.
 */
const KEEP_BRANCH_ERRORS = /^\/definitions\/representationItem\/allOf\/\d+#if$/;
const COMBINATORS = new Set(['anyOf', 'oneOf', 'if']);

/**
 * Validates a loaded template against the device-template JSON Schema and returns one problem
 * per broken rule and place, in document order, each with a message a person can act on.
 *
 * Combinator failures (anyOf / oneOf / if-then) are never reported as such: each is replaced
 * by one message explaining the rule (datapoint combination, #TIMEPOINT blocks, severity bands,
 * unitsConfig, valueMap integers, table address), and the branch errors behind it are dropped.
 * A missing key is reported at the key's path and positioned at the object that lacks it; an
 * unknown key is positioned at the key. Never throws for any parsed value.
 */
export function checkSchema(document: LoadedDocument): Problem[] {
  const errors = rawSchemaErrors(document.value);
  if (errors.length === 0) return [];
  const root = document.value;
  const located = errors.map((error) => ({ error, site: schemaLocationOf(error.parentSchema) ?? '' }));

  // Schema locations of failed combinator branches, by the instance path they were applied to.
  const branches = new Map<string, string[]>();
  const drafts: ProblemDraft[] = [];
  for (const { error, site } of located) {
    if (!COMBINATORS.has(error.keyword)) continue;
    const rule = `${site}#${error.keyword}`;
    const branchKeyword = error.keyword === 'if' ? 'then' : error.keyword;
    const prefixes = branches.get(error.instancePath) ?? [];
    prefixes.push(`${site}/${branchKeyword}`);
    branches.set(error.instancePath, prefixes);
    if (KEEP_BRANCH_ERRORS.test(rule)) continue;
    const build = RULES[rule] ?? unknownRule(describe(site));
    drafts.push(...build(root, pointerToPath(error.instancePath, root)));
  }

  for (const { error, site } of located) {
    if (COMBINATORS.has(error.keyword) || insideBranch(error, site, branches)) continue;
    const context = {
      root,
      format: document.format,
      sourceText: (path: DocumentPath) => plainScalarText(document, path),
    };
    drafts.push(...keywordProblems(error, pointerToPath(error.instancePath, root), context));
  }
  return finish(document, suppressShadowed(drafts));
}

/** True when the error comes from a branch of a failed combinator at its place or above it. */
function insideBranch(error: ErrorObject, site: string, branches: ReadonlyMap<string, readonly string[]>): boolean {
  if (branches.size === 0) return false;
  let instancePath = error.instancePath;
  for (;;) {
    for (const prefix of branches.get(instancePath) ?? []) {
      if (site === prefix || site.startsWith(`${prefix}/`)) return true;
    }
    if (instancePath === '') return false;
    instancePath = instancePath.slice(0, instancePath.lastIndexOf('/'));
  }
}

/**
 * The source text of a YAML plain scalar at `path` (`1.0` for a value parsed as the number 1),
 * or undefined when there is no text, the value is quoted or the text cannot be isolated.
 */
function plainScalarText(document: LoadedDocument, path: DocumentPath): string | undefined {
  if (document.format !== 'yaml' || document.text === '') return undefined;
  const { offset, line } = document.positionOf(path);
  if (line === 0) return undefined;
  const rest = document.text.slice(offset, offset + 200);
  const token = /^[^\s"'{}[\],#][^\n,{}[\]#]*/.exec(rest)?.[0]?.trim();
  return token !== undefined && token.length > 0 ? token : undefined;
}

function describe(site: string): string | undefined {
  const description = schemaNodeAt(site)?.['description'];
  return typeof description === 'string' ? description : undefined;
}

/**
 * Drops a message another one at the same place already covers: the general datapoint
 * combination message when the #TIMEPOINT rule is broken there, and the type message when the
 * enum message (which lists the allowed values) is reported for the same value.
 */
function suppressShadowed(drafts: readonly ProblemDraft[]): ProblemDraft[] {
  const at = (code: string): Set<string> =>
    new Set(drafts.filter((d) => d.code === code).map((d) => toJsonPointer(d.path)));
  const timepoints = at('DT_ERR_SCHEMA_TIMEPOINT_BLOCKS');
  const enums = at('DT_ERR_SCHEMA_ENUM');
  return drafts.filter((d) => {
    const pointer = toJsonPointer(d.path);
    if (d.code === 'DT_ERR_SCHEMA_DATAPOINT_COMBINATION') return !timepoints.has(pointer);
    if (d.code === 'DT_ERR_SCHEMA_TYPE') return !enums.has(pointer);
    return true;
  });
}

/** Positions, de-duplicates by (path, code) and sorts in document order. */
function finish(document: LoadedDocument, drafts: readonly ProblemDraft[]): Problem[] {
  const seen = new Set<string>();
  const unique: ProblemDraft[] = [];
  for (const draft of drafts) {
    const key = `${toJsonPointer(draft.path)}\u0000${draft.code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(draft);
  }
  unique.sort((a, b) => compareDocumentOrder(document.value, a.path, b.path) || compareText(a.code, b.code));
  return unique.map((draft) => toProblem(document, draft));
}

function toProblem(document: LoadedDocument, draft: ProblemDraft): Problem {
  const position = document.positionOf(draft.at, draft.which);
  return withoutUndefined({
    code: draft.code,
    severity: schemaProblems[draft.code].severity,
    path: toJsonPointer(draft.path),
    line: position.line,
    column: position.column,
    message: draft.message,
    found: draft.found,
    allowed: draft.allowed,
    suggestion: draft.suggestion,
  });
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
