import { compileExpression } from '../expressions/compile-expression.js';
import { EXPRESSION_LIMITS } from '../expressions/expression-limits.js';
import type {
  CompiledExpression,
  CompileResult,
  ExpressionIssue,
  ExpressionKind,
} from '../expressions/expression-types.js';
import type { LoadedDocument } from '../loading/loaded-document.js';
import { toJsonPointer, type DocumentPath, type Problem, type ProblemSeverity } from '../problem.js';
import { checkCalcExpressions, nameOf, setName, type CalcExpression } from './check-calc-expressions.js';
import { semanticProblems } from './semantic-problems.js';
import { shortValue, type ProblemDetails } from './semantic-reporter.js';
import { isObject } from '@triad/common';
import { type DatapointEntry, type JsonObject, type SetEntry, type TemplateModel } from './template-walker.js';

/**
 * Compiles every expression of the template with the expression language and reports what the
 * compiler finds, at the line and column of the offending part inside the expression string:
 *
 * | Field | Kind |
 * |---|---|
 * | `calcConfig.expression`, `convConfig.expression` | `value` |
 * | `alertConfig.evaluations[].expressions[].expression`, `rowFilterConfig.expressions[].expression` | `boolean` |
 * | `alertConfig.evaluations[].logic`, `rowFilterConfig.logic` | `logic`, with that evaluation's symbols |
 *
 * `datapoints.<id>` may name the datapoints of the same set. Issues keep the compiler's code and
 * severity: `DT_ERR_EXPR_*` are errors (an expression that does not compile cannot run, and the
 * value pipeline refuses the template), `DT_WARN_EXPR_*` warnings. A declared symbol the logic
 * does not use is reported at its declaration (`.../expressions/<i>/symbol`). Then the compiled
 * `calcConfig` expressions of each set are cross-checked (`checkCalcExpressions`: raw value
 * reads, cycles).
 *
 * Expressions the schema already refuses (empty, longer than the schema allows, not a string) are
 * skipped. Each distinct (kind, source, symbols, datapointIds) compiles once per call, so a
 * template repeating one rule on thousands of datapoints pays for one compilation. Never throws.
 */
export function checkExpressions(model: TemplateModel, document: LoadedDocument): Problem[] {
  const checker = new ExpressionChecker(document);
  for (const set of model.sets) checker.checkSet(set);
  return checker.problems;
}

/**
 * Where one expression string is. Paths and names are put together only when there is a problem
 * to report: a clean template costs one small object per expression.
 */
interface Site {
  readonly set: SetEntry;
  readonly datapoint: DatapointEntry;
  /** From the datapoint to the alert evaluation or row filter (empty for calcConfig, convConfig). */
  readonly owner: DocumentPath;
  /** From the owner to the string. */
  readonly tail: DocumentPath;
  /** `calcConfig expression`, `alert expression`, `row filter logic`... */
  readonly label: string;
  /** The symbol of an `expressions[]` entry, named in messages (null when it has none: named by index). */
  readonly symbol?: unknown;
  /** The evaluation's index when the datapoint has several, else -1. */
  readonly evaluation: number;
}

/** The set an expression belongs to: the ids `datapoints.<id>` may name, and their cache key. */
interface Scope {
  readonly set: SetEntry;
  readonly ids: readonly string[];
  readonly idsKey: string;
}

class ExpressionChecker {
  readonly problems: Problem[] = [];
  readonly #document: LoadedDocument;
  /** Compile results by (kind and datapointIds, or symbols) and then by source. */
  readonly #results = new Map<string, Map<string, CompileResult>>();
  readonly #singleSymbolLogic = new Map<string, Map<string, CompileResult>>();
  /** Per distinct list of datapointIds, a short key for the cache. */
  readonly #idKeys = new Map<string, string>();

  constructor(document: LoadedDocument) {
    this.#document = document;
  }

  checkSet(set: SetEntry): void {
    const ids = [...set.byId.keys()];
    const joined = ids.join('\n');
    let idsKey = this.#idKeys.get(joined);
    if (idsKey === undefined) {
      idsKey = String(this.#idKeys.size);
      this.#idKeys.set(joined, idsKey);
    }
    const scope: Scope = { set, ids, idsKey };
    const calcs: CalcExpression[] = [];
    for (const datapoint of set.datapoints) {
      const calc = datapoint.value['calcConfig'];
      if (isObject(calc)) {
        const site: Site = {
          set,
          datapoint,
          owner: NO_OWNER,
          tail: CALC_TAIL,
          label: 'calcConfig expression',
          evaluation: -1,
        };
        const expression = this.#check(scope, calc['expression'], 'value', site);
        if (expression !== undefined) calcs.push({ datapoint, expression });
      }
      const conv = datapoint.value['convConfig'];
      if (isObject(conv))
        this.#check(scope, conv['expression'], 'value', {
          set,
          datapoint,
          owner: NO_OWNER,
          tail: CONV_TAIL,
          label: 'convConfig expression',
          evaluation: -1,
        });
      const alert = datapoint.value['alertConfig'];
      const evaluations = isObject(alert) ? alert['evaluations'] : undefined;
      if (Array.isArray(evaluations)) {
        for (let i = 0; i < evaluations.length; i++) {
          const evaluation: unknown = evaluations[i];
          if (isObject(evaluation))
            this.#checkCondition(
              scope,
              datapoint,
              evaluation,
              ['alertConfig', 'evaluations', i],
              ALERT_LABELS,
              evaluations.length > 1 ? i : -1,
            );
        }
      }
      const rowFilter = datapoint.value['rowFilterConfig'];
      if (isObject(rowFilter))
        this.#checkCondition(scope, datapoint, rowFilter, ROW_FILTER_OWNER, ROW_FILTER_LABELS, -1);
    }
    if (calcs.length > 0) {
      checkCalcExpressions(set, calcs, (code, path, offset, details) =>
        this.#push(code, semanticProblems[code].severity, path, offset, details),
      );
    }
  }

  /** The `expressions` (boolean) and `logic` of an alert evaluation or a row filter. */
  #checkCondition(
    scope: Scope,
    datapoint: DatapointEntry,
    owner: JsonObject,
    ownerPath: DocumentPath,
    labels: Labels,
    evaluation: number,
  ): void {
    const expressions = owner['expressions'];
    const symbols: string[] = [];
    if (Array.isArray(expressions)) {
      for (let j = 0; j < expressions.length; j++) {
        const entry: unknown = expressions[j];
        if (!isObject(entry)) continue;
        const symbol = entry['symbol'];
        if (typeof symbol === 'string' && !symbols.includes(symbol)) symbols.push(symbol);
        const site: Site = {
          set: scope.set,
          datapoint,
          owner: ownerPath,
          tail: ['expressions', j, 'expression'],
          label: labels.expression,
          symbol: symbol ?? null,
          evaluation,
        };
        this.#check(scope, entry['expression'], 'boolean', site);
      }
    } else if (expressions !== undefined) {
      return; // a schema error: which symbols the logic may use is unknown
    }
    this.#check(
      scope,
      owner['logic'],
      'logic',
      { set: scope.set, datapoint, owner: ownerPath, tail: LOGIC_TAIL, label: labels.logic, evaluation },
      symbols,
      expressions,
    );
  }

  /**
   * Compiles the expression of `site` (when it is a string the schema accepts) and reports its
   * issues. Returns the compiled expression, or undefined when it has errors or was skipped.
   * For logic, `declarations` are the owner's `expressions[]`, where unused symbols are reported.
   */
  #check(
    scope: Scope,
    source: unknown,
    kind: ExpressionKind,
    site: Site,
    symbols?: readonly string[],
    declarations?: readonly unknown[],
  ): CompiledExpression | undefined {
    if (typeof source !== 'string' || source.length === 0 || beyondSchemaLength(source)) return undefined;
    const result = this.#compile(source, kind, scope, symbols);
    const issues = result.ok ? result.warnings : result.issues;
    if (issues.length === 0) return result.ok ? result.expression : undefined;
    const path = [...site.datapoint.path, ...site.owner, ...site.tail];
    for (const issue of issues) {
      const details: ProblemDetails = {
        message: `${describe(site)}: ${issue.message}`,
        found: foundOf(source, issue),
        ...(issue.suggestion !== undefined ? { suggestion: issue.suggestion } : {}),
      };
      const declared =
        issue.code === 'DT_WARN_EXPR_SYMBOL_UNUSED' && declarations !== undefined
          ? declarations.findIndex((e) => isObject(e) && e['symbol'] === issue.name)
          : -1;
      if (declared >= 0)
        this.#push(
          issue.code,
          issue.severity,
          [...site.datapoint.path, ...site.owner, 'expressions', declared, 'symbol'],
          undefined,
          details,
        );
      else this.#push(issue.code, issue.severity, path, issue.offset, details);
    }
    return result.ok ? result.expression : undefined;
  }

  #compile(source: string, kind: ExpressionKind, scope: Scope, symbols: readonly string[] | undefined): CompileResult {
    // What a value or boolean expression may name depends on the set's ids only when it can name
    // a datapoint: `datapoints`, possibly spelled with a \u escape. Logic depends on its symbols;
    // the common single symbol is its own key, in a map of its own.
    let groups = this.#results;
    let group: string;
    if (kind !== 'logic')
      group = source.includes('datapoints') || source.includes('\\') ? `${kind}\0${scope.idsKey}` : kind;
    else if (symbols?.length === 1) {
      groups = this.#singleSymbolLogic;
      group = symbols[0] ?? '';
    } else group = `logic\0${JSON.stringify(symbols ?? [])}`;
    let results = groups.get(group);
    if (results === undefined) {
      results = new Map();
      groups.set(group, results);
    }
    let result = results.get(source);
    if (result === undefined) {
      result = compileExpression(
        source,
        kind === 'logic' ? { kind, symbols: symbols ?? [] } : { kind, datapointIds: scope.ids },
      );
      results.set(source, result);
    }
    return result;
  }

  /** Records a problem on the string at `path`, at `offset` inside it (undefined: at its start). */
  #push(
    code: string,
    severity: ProblemSeverity,
    path: DocumentPath,
    offset: number | undefined,
    details: ProblemDetails,
  ): void {
    const document = this.#document;
    const position =
      offset === undefined || document.positionInString === undefined
        ? document.positionOf(path)
        : document.positionInString(path, offset);
    const problem: { -readonly [K in keyof Problem]: Problem[K] } = {
      code,
      severity,
      path: toJsonPointer(path),
      line: position.line,
      column: position.column,
      message: details.message,
    };
    const found = details.found === undefined ? undefined : shortValue(details.found);
    if (found !== undefined) problem.found = found;
    if (details.allowed !== undefined) problem.allowed = details.allowed;
    if (details.suggestion !== undefined) problem.suggestion = details.suggestion;
    this.problems.push(problem);
  }
}

const NO_OWNER: DocumentPath = Object.freeze([]);
const CALC_TAIL: DocumentPath = Object.freeze(['calcConfig', 'expression']);
const CONV_TAIL: DocumentPath = Object.freeze(['convConfig', 'expression']);
const LOGIC_TAIL: DocumentPath = Object.freeze(['logic']);
const ROW_FILTER_OWNER: DocumentPath = Object.freeze(['rowFilterConfig']);

interface Labels {
  readonly expression: string;
  readonly logic: string;
}
const ALERT_LABELS: Labels = Object.freeze({ expression: 'alert expression', logic: 'alert logic' });
const ROW_FILTER_LABELS: Labels = Object.freeze({ expression: 'row filter expression', logic: 'row filter logic' });

/** `alert expression "hot" in evaluations[1] of datapoint "cpu" in set "system"`. */
function describe(site: Site): string {
  const symbol =
    site.symbol === undefined
      ? ''
      : typeof site.symbol === 'string'
        ? ` "${site.symbol}"`
        : ` expressions[${String(site.tail[1])}]`;
  const evaluation = site.evaluation >= 0 ? ` in evaluations[${site.evaluation}]` : '';
  return `${site.label}${symbol}${evaluation} of datapoint ${nameOf(site.datapoint)} in set ${setName(site.set)}`;
}

/** The schema refuses expressions of more than 800 characters (code points). */
function beyondSchemaLength(source: string): boolean {
  const max = EXPRESSION_LIMITS.maxSourceLength;
  return source.length > max && [...source].length > max;
}

/** The offending text: the issue's part of the source, else the name it is about. */
function foundOf(source: string, issue: ExpressionIssue): string | undefined {
  if (issue.length > 0) return source.slice(issue.offset, issue.offset + issue.length);
  return issue.name;
}
