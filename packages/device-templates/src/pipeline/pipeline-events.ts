import { errorMessage } from '@triad/common';
import { ExpressionEvaluationError } from '../expressions/expression-evaluation-error.js';
import type { SetPlan } from './compile-pipeline.js';
import type { AlertPlan, DatapointPlan } from './datapoint-plan.js';
import type { PipelineProblemCode } from './pipeline-problems.js';
import type {
  AlertEvent,
  DatapointResult,
  EvaluationErrorEvent,
  PipelineStage,
  TableIndex,
  UpdateRejectedEvent,
} from './pipeline-types.js';
import type { EntryState, RowState } from './row-state.js';

/**
 * The result object for one datapoint of a row. Field order is fixed per datapoint (stable shapes, `unit` after
 * `value`).
 */
export function makeResult(set: SetPlan, plan: DatapointPlan, row: RowState, entry: EntryState): DatapointResult {
  const { origin, tableIndex } = row;
  const { value, rawValue, unit, quality, timestamp } = entry;
  const datapointSetId = set.id;
  const datapointId = plan.id;
  // Literals rather than spreads: this runs for every value.
  const result: { -readonly [K in keyof DatapointResult]: DatapointResult[K] } =
    tableIndex === undefined
      ? unit === undefined
        ? { origin, datapointSetId, datapointId, value, rawValue, quality, timestamp }
        : { origin, datapointSetId, datapointId, value, unit, rawValue, quality, timestamp }
      : unit === undefined
        ? { origin, datapointSetId, datapointId, tableIndex, value, rawValue, quality, timestamp }
        : { origin, datapointSetId, datapointId, tableIndex, value, unit, rawValue, quality, timestamp };
  if (entry.defaulted) result.defaulted = true;
  return result;
}

/** A raise, clear or log event of one evaluation. `value` is omitted when undefined. */
export function makeAlertEvent(
  type: AlertEvent['type'],
  set: SetPlan,
  plan: DatapointPlan,
  alert: AlertPlan,
  row: RowState,
  timestamp: number,
  value: unknown,
  reason?: 'row-removed',
): AlertEvent {
  // Two literals rather than a spread: this runs on every transition, and spreads are slow.
  const { severity, level, text, textHelp, facility, hidden, audited, broadcast } = alert;
  const { origin, tableIndex } = row;
  const event: { -readonly [K in keyof AlertEvent]: AlertEvent[K] } =
    tableIndex === undefined
      ? {
          type,
          origin,
          datapointSetId: set.id,
          datapointId: plan.id,
          severity,
          level,
          text,
          textHelp,
          facility,
          hidden,
          audited,
          broadcast,
          timestamp,
        }
      : {
          type,
          origin,
          datapointSetId: set.id,
          datapointId: plan.id,
          tableIndex,
          severity,
          level,
          text,
          textHelp,
          facility,
          hidden,
          audited,
          broadcast,
          timestamp,
        };
  if (alert.routing !== undefined) event.routing = alert.routing;
  if (value !== undefined) event.value = value;
  if (reason !== undefined) event.reason = reason;
  return event;
}

/** What a failure inside a stage says: the expression error's code, or a pipeline code. */
export interface Failure {
  readonly code: string;
  readonly message: string;
}

/** Turns anything an expression threw into a failure; only `ExpressionEvaluationError` is expected. */
export function failureOf(error: unknown): Failure {
  if (error instanceof ExpressionEvaluationError) return { code: error.code, message: error.message };
  const code: PipelineProblemCode = 'DT_ERR_PIPE_EVAL_UNEXPECTED';
  return { code, message: `unexpected failure: ${errorMessage(error)}` };
}

export function makeErrorEvent(
  set: SetPlan,
  plan: DatapointPlan,
  row: RowState,
  stage: PipelineStage,
  failure: Failure,
  timestamp: number,
  expression?: string,
  severity?: number,
): EvaluationErrorEvent {
  return {
    type: 'evaluation-error',
    origin: row.origin,
    datapointSetId: set.id,
    datapointId: plan.id,
    ...(row.tableIndex !== undefined ? { tableIndex: row.tableIndex } : {}),
    timestamp,
    stage,
    code: failure.code,
    message: failure.message,
    ...(severity !== undefined ? { severity } : {}),
    ...(expression !== undefined ? { expression } : {}),
  };
}

/** Where a rejected input pointed, as far as it could be read. */
export interface RejectedPlace {
  readonly datapointSetId?: string | undefined;
  readonly datapointId?: string | undefined;
  readonly tableIndex?: TableIndex | undefined;
}

export function makeRejection(
  origin: string,
  timestamp: number,
  code: PipelineProblemCode,
  message: string,
  place: RejectedPlace,
): UpdateRejectedEvent {
  return {
    type: 'update-rejected',
    origin,
    ...(place.datapointSetId !== undefined ? { datapointSetId: place.datapointSetId } : {}),
    ...(place.datapointId !== undefined ? { datapointId: place.datapointId } : {}),
    ...(place.tableIndex !== undefined ? { tableIndex: place.tableIndex } : {}),
    timestamp,
    code,
    message,
  };
}
