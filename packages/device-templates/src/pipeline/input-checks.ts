import type { DatapointPlan } from './datapoint-plan.js';
import { makeRejection } from './pipeline-events.js';
import type { PipelineProblemCode } from './pipeline-problems.js';
import type { PipelineSink, TableIndex } from './pipeline-types.js';
import type { SetRuntime } from './set-runtime.js';

/** An input as the pipeline reads it: any object, every field checked before use. */
export type LooseInput = Readonly<Record<string, unknown>>;

export function isTableIndex(value: unknown): value is TableIndex {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * The first of `rawValue` and `value` of `input` that is or holds (in an array or object) NaN or
 * an infinite number, or undefined when both are finite. Such a number cannot travel in JSON
 * (`JSON.stringify(Infinity)` is `null`), so an alarm would report `value null`; the update is
 * rejected instead (docs/pipeline.md).
 */
export function nonFiniteField(input: LooseInput): 'rawValue' | 'value' | undefined {
  if (holdsNonFinite(input['rawValue'], 0)) return 'rawValue';
  if (holdsNonFinite(input['value'], 0)) return 'value';
  return undefined;
}

// Depth-limited: a reading is plain data; 64 levels is far beyond any driver's value.
function holdsNonFinite(value: unknown, depth: number): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (typeof value !== 'object' || value === null || depth > 64) return false;
  const children: readonly unknown[] = Array.isArray(value) ? value : Object.values(value);
  return children.some((child) => holdsNonFinite(child, depth + 1));
}

/** The message of a DT_ERR_PIPE_UPDATE_NOT_FINITE rejection. */
export function nonFiniteMessage(field: 'rawValue' | 'value', input: LooseInput): string {
  const value = input[field];
  const shown = typeof value === 'number' ? String(value) : 'a number that is NaN or infinite';
  return (
    `${field} is ${shown}: the pipeline takes finite numbers only (a JSON number beyond ±1.8e308, such as ` +
    `1e400, reads as Infinity); send it as a string or clamp it in the driver`
  );
}

/** Sends an `update-rejected` event naming whatever the input names of set, datapoint and row. */
export function reject(
  sink: PipelineSink,
  origin: string,
  timestamp: number,
  code: PipelineProblemCode,
  message: string,
  input: LooseInput,
  setId?: string,
): void {
  const datapointSetId = input['datapointSetId'];
  const datapointId = input['datapointId'];
  const tableIndex = input['tableIndex'];
  sink.event(
    makeRejection(origin, timestamp, code, message, {
      datapointSetId: typeof datapointSetId === 'string' ? datapointSetId : setId,
      datapointId: typeof datapointId === 'string' ? datapointId : undefined,
      tableIndex: isTableIndex(tableIndex) ? tableIndex : undefined,
    }),
  );
}

/** The datapoint an update or a cell names, or undefined after rejecting an unknown or calculated one. */
export function readableDatapoint(
  set: SetRuntime,
  origin: string,
  timestamp: number,
  input: LooseInput,
  sink: PipelineSink,
): DatapointPlan | undefined {
  const datapointId = input['datapointId'];
  const setId = set.plan.id;
  if (typeof datapointId !== 'string') {
    reject(
      sink,
      origin,
      timestamp,
      'DT_ERR_PIPE_UPDATE_MALFORMED',
      'the update needs datapointId (a string)',
      input,
      setId,
    );
    return undefined;
  }
  const plan = set.plan.byId.get(datapointId);
  if (plan === undefined) {
    reject(
      sink,
      origin,
      timestamp,
      'DT_ERR_PIPE_UPDATE_DATAPOINT_UNKNOWN',
      `the set '${setId}' has no datapoint '${datapointId}'`,
      input,
      setId,
    );
    return undefined;
  }
  if (plan.kind === 'calc') {
    reject(
      sink,
      origin,
      timestamp,
      'DT_ERR_PIPE_UPDATE_CALCULATED',
      `'${datapointId}' is calculated by its calcConfig; a driver cannot set it`,
      input,
      setId,
    );
    return undefined;
  }
  return plan;
}
