import { compileExpression } from '../expressions/compile-expression.js';
import type { CompiledExpression, EvaluationContext, ExpressionKind } from '../expressions/expression-types.js';
import type { Datapoint, NamedExpression, Routing } from '../generated/device-template.generated.js';
import { toJsonPointer, type DocumentPath } from '../problem.js';
import type { AlertFields } from './pipeline-types.js';
import { isLogSeverity, severityLevel } from './severity-level.js';
import type { PipelineBuildIssue } from './template-evaluator-error.js';
import { compileUnits, type UnitPlan } from './unit-conversion.js';
import { compileValueMap, type ValueMapLookup } from './value-map.js';

/** A compiled expression and where it sits, for error events. */
export interface ExpressionPlan {
  readonly source: string;
  readonly evaluate: (context: EvaluationContext) => unknown;
  /** Indexes (in the set) of the datapoints it reads through `datapoints.<id>`. */
  readonly inputs: readonly number[];
}

/** `{expression, symbol}` pairs combined by `logic`: an alert evaluation or a row filter. */
export interface ConditionPlan {
  readonly expressions: readonly (ExpressionPlan & { readonly symbol: string })[];
  /** Undefined when logic is the only expression's symbol: that expression's result is the answer. */
  readonly logic: ExpressionPlan | undefined;
}

/** One alert evaluation: its condition and the fields its events carry. */
export interface AlertPlan extends ConditionPlan, AlertFields {
  /** Slot of its state in a row's alert-state array. */
  readonly slot: number;
  readonly isLog: boolean;
  readonly onStartup: boolean;
  readonly routing: Routing | undefined;
}

/** `read`: a driver sends it; `calc`: its calcConfig computes it; `constant`: only defaultValueConfig. */
export type DatapointKind = 'read' | 'calc' | 'constant';

/** Everything the pipeline does for one datapoint, resolved once at build time. */
export interface DatapointPlan {
  readonly id: string;
  /** Position in its set; index into a row's entries. */
  readonly index: number;
  readonly kind: DatapointKind;
  readonly defaultRawValue: unknown;
  readonly defaultValue: unknown;
  readonly valueMap: ValueMapLookup | undefined;
  readonly conversion: ExpressionPlan | undefined;
  readonly units: UnitPlan | undefined;
  readonly calc: ExpressionPlan | undefined;
  readonly alerts: readonly AlertPlan[];
  readonly rowFilter: ConditionPlan | undefined;
}

/** Compiles the expressions of one set against the set's datapointIds, collecting issues. */
export class ExpressionCompiler {
  readonly issues: PipelineBuildIssue[] = [];
  readonly #indexById: ReadonlyMap<string, number>;
  readonly #ids: readonly string[];

  constructor(indexById: ReadonlyMap<string, number>) {
    this.#indexById = indexById;
    this.#ids = [...indexById.keys()];
  }

  compile(
    source: string,
    kind: ExpressionKind,
    path: DocumentPath,
    symbols?: readonly string[],
  ): ExpressionPlan | undefined {
    const result = compileExpression(
      source,
      kind === 'logic' ? { kind, symbols: symbols ?? [] } : { kind, datapointIds: this.#ids },
    );
    if (!result.ok) {
      const pointer = toJsonPointer(path);
      for (const issue of result.issues) {
        if (issue.severity !== 'error') continue;
        this.issues.push({
          code: 'DT_ERR_PIPE_BUILD_EXPRESSION',
          path: pointer,
          message: `${issue.message} (in '${source}')`,
          expressionCode: issue.code,
          offset: issue.offset,
          length: issue.length,
        });
      }
      return undefined;
    }
    return planOf(result.expression, this.#indexById);
  }

  report(issue: PipelineBuildIssue): void {
    this.issues.push(issue);
  }
}

function planOf(expression: CompiledExpression, indexById: ReadonlyMap<string, number>): ExpressionPlan {
  const inputs = expression.references.datapoints
    .map((id) => indexById.get(id))
    .filter((i): i is number => i !== undefined);
  return { source: expression.source, evaluate: expression.evaluate, inputs };
}

/**
 * Compiles one datapoint. Issues go to `compiler`; the plan is returned even when some part
 * failed (the caller throws once every datapoint has been looked at).
 */
export function compileDatapoint(
  datapoint: Datapoint,
  index: number,
  path: DocumentPath,
  compiler: ExpressionCompiler,
  nextSlot: () => number,
): DatapointPlan {
  const id = datapoint.commonConfig!.datapointId;
  const defaults = datapoint.defaultValueConfig;
  const kind: DatapointKind = datapoint.calcConfig ? 'calc' : datapoint.addressConfig ? 'read' : 'constant';
  let units: UnitPlan | undefined;
  if (datapoint.unitsConfig) {
    const compiled = compileUnits(datapoint.unitsConfig);
    if (compiled.ok) units = compiled.plan;
    else
      for (const issue of compiled.issues)
        compiler.report({
          code: issue.code,
          path: toJsonPointer([...path, 'unitsConfig', issue.member]),
          message: issue.message,
        });
  }
  const alerts = (datapoint.alertConfig?.evaluations ?? []).map((evaluation, i): AlertPlan | undefined => {
    const condition = compileCondition(
      evaluation.expressions,
      evaluation.logic,
      [...path, 'alertConfig', 'evaluations', i],
      compiler,
    );
    if (condition === undefined) return undefined;
    return {
      ...condition,
      slot: nextSlot(),
      severity: evaluation.severity,
      level: severityLevel(evaluation.severity),
      isLog: isLogSeverity(evaluation.severity),
      onStartup: evaluation.onStartup === true,
      text: evaluation.text,
      textHelp: evaluation.textHelp,
      facility: evaluation.facility,
      hidden: evaluation.hidden === true,
      audited: evaluation.audited === true,
      broadcast: evaluation.broadcast === true,
      routing: evaluation.routing,
    };
  });
  const rowFilterConfig = datapoint.rowFilterConfig;
  const rowFilter =
    rowFilterConfig && (rowFilterConfig.expressions?.length || rowFilterConfig.logic !== undefined)
      ? compileCondition(
          rowFilterConfig.expressions ?? [],
          rowFilterConfig.logic,
          [...path, 'rowFilterConfig'],
          compiler,
        )
      : undefined;
  return {
    id,
    index,
    kind,
    defaultRawValue: nullToUndefined(defaults?.rawValue),
    defaultValue: nullToUndefined(defaults?.value),
    valueMap: datapoint.valueMapConfig ? compileValueMap(datapoint.valueMapConfig.map ?? []) : undefined,
    conversion: datapoint.convConfig
      ? compiler.compile(datapoint.convConfig.expression, 'value', [...path, 'convConfig', 'expression'])
      : undefined,
    units,
    calc: datapoint.calcConfig
      ? compiler.compile(datapoint.calcConfig.expression, 'value', [...path, 'calcConfig', 'expression'])
      : undefined,
    alerts: alerts.filter((a): a is AlertPlan => a !== undefined),
    rowFilter,
  };
}

function nullToUndefined(value: unknown): unknown {
  return value === null ? undefined : value;
}

/**
 * Compiles `{expression, symbol}` pairs and their logic. A row filter without `logic` needs
 * every expression to hold (their conjunction).
 */
function compileCondition(
  expressions: readonly NamedExpression[],
  logic: string | undefined,
  path: DocumentPath,
  compiler: ExpressionCompiler,
): ConditionPlan | undefined {
  let failed = false;
  const compiled: (ExpressionPlan & { symbol: string })[] = [];
  expressions.forEach((named, i) => {
    const plan = compiler.compile(named.expression, 'boolean', [...path, 'expressions', i, 'expression']);
    if (plan === undefined) failed = true;
    else compiled.push({ ...plan, symbol: named.symbol });
  });
  const symbols = expressions.map((e) => e.symbol);
  const only = compiled.length === 1 ? compiled[0]?.symbol : undefined;
  if (logic !== undefined && only !== undefined && logic.trim() === only && symbols.length === 1)
    return failed ? undefined : { expressions: compiled, logic: undefined };
  const logicSource = logic ?? (symbols.length > 0 ? symbols.join(' && ') : 'true');
  const logicPlan = compiler.compile(logicSource, 'logic', [...path, 'logic'], symbols);
  if (failed || logicPlan === undefined) return undefined;
  return { expressions: compiled, logic: logicPlan };
}
