import type { DatapointSet, DeviceTemplate } from '../generated/device-template.generated.js';
import { toJsonPointer, type DocumentPath } from '../problem.js';
import { dependentsOf, orderCalculations, type CalcNode } from './calc-order.js';
import { compileDatapoint, ExpressionCompiler, type DatapointPlan } from './datapoint-plan.js';
import { itemAt } from './item-at.js';
import type { PipelineBuildIssue } from './template-evaluator-error.js';
import { TemplateEvaluatorError } from './template-evaluator-error.js';

/** One datapoint set, compiled. Immutable; evaluators keep their state elsewhere. */
export interface SetPlan {
  readonly id: string;
  readonly type: 'map' | 'tableStatic' | 'tableDynamic';
  readonly isTable: boolean;
  readonly datapoints: readonly DatapointPlan[];
  readonly byId: ReadonlyMap<string, DatapointPlan>;
  /** Indexes of the `tableAddress.indexes` datapoints, in order. */
  readonly indexes: readonly number[];
  /** Calculated datapoints in dependency order. */
  readonly calcOrder: readonly number[];
  /** Per datapoint index: the calculated datapoints that (transitively) read it, in order. */
  readonly dependents: readonly (readonly number[])[];
  /** `constant` datapoints: they take their default when a row appears. */
  readonly constants: readonly number[];
  /** Datapoints with a row filter (table sets only; ignored in map sets). */
  readonly rowFilters: readonly number[];
  /** Number of alert evaluations in the set: the size of a row's alert-state array. */
  readonly alertSlots: number;
}

/** A template compiled into per-set plans; `createTemplateEvaluator` adds state to it. */
export interface TemplatePipeline {
  readonly templateId: string;
  readonly origin: string;
  readonly sets: readonly SetPlan[];
  readonly setsById: ReadonlyMap<string, SetPlan>;
}

/**
 * Compiles every expression, value map and unit conversion of a validated template once, orders
 * calculated datapoints by dependency, and checks what the pipeline relies on. Throws a
 * `TemplateEvaluatorError` listing every issue (with JSON Pointers) when the template cannot be
 * evaluated; it does not re-run the schema, so pass a template that passed `validate*`.
 */
export function compileTemplatePipeline(template: DeviceTemplate): TemplatePipeline {
  const issues: PipelineBuildIssue[] = [];
  if (typeof template !== 'object' || template === null || !Array.isArray(template.datapointSets)) {
    throw new TemplateEvaluatorError([
      {
        code: 'DT_ERR_PIPE_BUILD_TEMPLATE_SHAPE',
        path: '/datapointSets',
        message: 'the template has no datapointSets array',
      },
    ]);
  }
  const sets: SetPlan[] = [];
  const setsById = new Map<string, SetPlan>();
  template.datapointSets.forEach((set, i) => {
    const plan = compileSet(set, ['datapointSets', i], issues);
    if (plan === undefined) return;
    if (setsById.has(plan.id)) {
      issues.push({
        code: 'DT_ERR_PIPE_BUILD_SET_DUPLICATE',
        path: toJsonPointer(['datapointSets', i, 'datapointSetId']),
        message: `the datapointSetId '${plan.id}' is used by an earlier set`,
      });
      return;
    }
    sets.push(plan);
    setsById.set(plan.id, plan);
  });
  if (issues.length > 0) throw new TemplateEvaluatorError(issues);
  return Object.freeze({
    templateId: String(template.templateId),
    origin: String(template.origin),
    sets: Object.freeze(sets),
    setsById,
  });
}

function compileSet(set: DatapointSet, path: DocumentPath, issues: PipelineBuildIssue[]): SetPlan | undefined {
  if (typeof set?.datapointSetId !== 'string' || !Array.isArray(set.datapoints)) {
    issues.push({
      code: 'DT_ERR_PIPE_BUILD_TEMPLATE_SHAPE',
      path: toJsonPointer(path),
      message: 'the datapoint set has no datapointSetId or no datapoints array',
    });
    return undefined;
  }
  const indexById = new Map<string, number>();
  const kept: { datapoint: (typeof set.datapoints)[number]; path: DocumentPath }[] = [];
  set.datapoints.forEach((datapoint, i) => {
    const dpPath = [...path, 'datapoints', i];
    const id = datapoint?.commonConfig?.datapointId;
    if (typeof id !== 'string') {
      issues.push({
        code: 'DT_ERR_PIPE_BUILD_TEMPLATE_SHAPE',
        path: toJsonPointer([...dpPath, 'commonConfig']),
        message: 'the datapoint has no commonConfig.datapointId',
      });
      return;
    }
    if (indexById.has(id)) {
      issues.push({
        code: 'DT_ERR_PIPE_BUILD_DATAPOINT_DUPLICATE',
        path: toJsonPointer([...dpPath, 'commonConfig', 'datapointId']),
        message:
          `the datapointId '${id}' is already used in the set '${set.datapointSetId}'; updates could not ` +
          `tell the two apart`,
      });
      return;
    }
    indexById.set(id, kept.length);
    kept.push({ datapoint, path: dpPath });
  });
  const compiler = new ExpressionCompiler(indexById);
  let slots = 0;
  const datapoints = kept.map(({ datapoint, path: dpPath }, index) =>
    compileDatapoint(datapoint, index, dpPath, compiler, () => slots++),
  );
  issues.push(...compiler.issues);
  const isTable = set.datapointSetType === 'tableStatic' || set.datapointSetType === 'tableDynamic';
  const indexes: number[] = [];
  (isTable ? (set.tableAddress?.indexes ?? []) : []).forEach((id, i) => {
    const index = indexById.get(id);
    if (index !== undefined) indexes.push(index);
    else
      issues.push({
        code: 'DT_ERR_PIPE_BUILD_TABLE_INDEX_UNKNOWN',
        path: toJsonPointer([...path, 'tableAddress', 'indexes', i]),
        message: `the table index '${id}' names no datapoint of the set '${set.datapointSetId}'`,
      });
  });
  const nodes: CalcNode[] = datapoints.flatMap((d) =>
    d.calc === undefined ? [] : [{ index: d.index, inputs: d.calc.inputs }],
  );
  const ordered = orderCalculations(nodes);
  if (!ordered.ok) {
    for (const cycle of ordered.cycles) {
      const first = itemAt(cycle, 0);
      const names = [...cycle, first].map((i) => itemAt(datapoints, i).id).join(' -> ');
      issues.push({
        code: 'DT_ERR_PIPE_BUILD_CALC_CYCLE',
        path: toJsonPointer([...itemAt(kept, first).path, 'calcConfig', 'expression']),
        message: `calculated datapoints read each other in a cycle (${names}), so none of them can be computed first`,
      });
    }
    return undefined;
  }
  return Object.freeze({
    id: set.datapointSetId,
    type: set.datapointSetType,
    isTable,
    datapoints,
    byId: new Map(datapoints.map((d) => [d.id, d])),
    indexes,
    calcOrder: ordered.order,
    dependents: dependentsOf(nodes, ordered.order, datapoints.length),
    constants: datapoints.filter((d) => d.kind === 'constant').map((d) => d.index),
    rowFilters: isTable ? datapoints.filter((d) => d.rowFilter !== undefined).map((d) => d.index) : [],
    alertSlots: slots,
  });
}
