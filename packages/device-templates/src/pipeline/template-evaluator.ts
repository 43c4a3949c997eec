import type { DeviceTemplate } from '../generated/device-template.generated.js';
import { compileTemplatePipeline, type TemplatePipeline } from './compile-pipeline.js';
import {
  isTableIndex,
  nonFiniteField,
  nonFiniteMessage,
  readableDatapoint,
  reject,
  type LooseInput,
} from './input-checks.js';
import type {
  DatapointResult,
  EvaluatorOptions,
  PipelineEvent,
  PipelineInput,
  PipelineOutput,
  PipelineSink,
  SetSnapshot,
  TemplateEvaluator,
} from './pipeline-types.js';
import { itemAt } from './item-at.js';
import { RowProcessor } from './row-processor.js';
import { SetRuntime } from './set-runtime.js';
import { snapshotSet } from './snapshot.js';
import { applyRowRemoval, applyTableUpdate } from './table-updates.js';

/**
 * Builds an evaluator for a validated template: compiles it (throws `TemplateEvaluatorError`
 * when it cannot be evaluated) and starts with no state. See `TemplateEvaluator`.
 */
export function createTemplateEvaluator(template: DeviceTemplate, options: EvaluatorOptions = {}): TemplateEvaluator {
  return createPipelineEvaluator(compileTemplatePipeline(template), options);
}

/** Builds an evaluator on an already compiled pipeline: compile once, evaluate with fresh state many times. */
export function createPipelineEvaluator(pipeline: TemplatePipeline, options: EvaluatorOptions = {}): TemplateEvaluator {
  return new Evaluator(pipeline, options);
}

class CollectingSink implements PipelineSink {
  readonly values: DatapointResult[] = [];
  readonly events: PipelineEvent[] = [];
  value(result: DatapointResult): void {
    this.values.push(result);
  }
  event(event: PipelineEvent): void {
    this.events.push(event);
  }
}

class Evaluator implements TemplateEvaluator {
  readonly #sets: Map<string, SetRuntime>;
  readonly #origin: string;
  readonly #now: () => number;
  readonly #rows = new RowProcessor();

  constructor(pipeline: TemplatePipeline, options: EvaluatorOptions) {
    this.#sets = new Map(pipeline.sets.map((plan) => [plan.id, new SetRuntime(plan)]));
    this.#origin = options.origin ?? pipeline.origin;
    this.#now = options.now ?? Date.now;
  }

  update(input: PipelineInput): PipelineOutput {
    const sink = new CollectingSink();
    this.feed(input, sink);
    return { values: sink.values, events: sink.events };
  }

  updateBatch(inputs: Iterable<PipelineInput>): PipelineOutput {
    const sink = new CollectingSink();
    for (const input of inputs) this.feed(input, sink);
    return { values: sink.values, events: sink.events };
  }

  snapshot(): SetSnapshot[] {
    return [...this.#sets.values()].map((set) => snapshotSet(set.plan, set.origins));
  }

  reset(): void {
    for (const set of this.#sets.values()) set.reset();
  }

  feed(input: PipelineInput, sink: PipelineSink): void {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      reject(
        sink,
        this.#origin,
        this.#now(),
        'DT_ERR_PIPE_UPDATE_MALFORMED',
        'an input must be an object such as {datapointSetId, datapointId, rawValue}',
        {},
      );
      return;
    }
    const loose = input as unknown as LooseInput;
    const origin = loose['origin'] ?? this.#origin;
    const stamp = loose['timestamp'] ?? this.#now();
    const setId = loose['datapointSetId'];
    if (
      typeof setId !== 'string' ||
      typeof origin !== 'string' ||
      typeof stamp !== 'number' ||
      !Number.isFinite(stamp)
    ) {
      const what =
        typeof setId !== 'string'
          ? 'datapointSetId (a string)'
          : typeof origin !== 'string'
            ? 'origin as a string'
            : 'timestamp as epoch milliseconds';
      reject(
        sink,
        typeof origin === 'string' ? origin : this.#origin,
        this.#now(),
        'DT_ERR_PIPE_UPDATE_MALFORMED',
        `the input needs ${what}`,
        loose,
      );
      return;
    }
    const set = this.#sets.get(setId);
    if (set === undefined)
      reject(
        sink,
        origin,
        stamp,
        'DT_ERR_PIPE_UPDATE_SET_UNKNOWN',
        `the template has no datapoint set '${setId}'`,
        loose,
      );
    else if (loose['rows'] !== undefined) applyTableUpdate(this.#rows, set, origin, stamp, loose, sink);
    else if (loose['removed'] === true) applyRowRemoval(this.#rows, set, origin, stamp, loose, sink);
    else this.#datapointUpdate(set, origin, stamp, loose, sink);
  }

  // The hot path: one reading of one datapoint.
  #datapointUpdate(set: SetRuntime, origin: string, timestamp: number, update: LooseInput, sink: PipelineSink): void {
    const plan = readableDatapoint(set, origin, timestamp, update, sink);
    if (plan === undefined) return;
    const quality = update['quality'] ?? 'good';
    const tableIndex = set.plan.isTable ? (update['tableIndex'] ?? 0) : undefined;
    if (typeof quality !== 'string' || (tableIndex !== undefined && !isTableIndex(tableIndex))) {
      const what = typeof quality !== 'string' ? 'quality must be a string' : 'tableIndex must be a string or a number';
      reject(sink, origin, timestamp, 'DT_ERR_PIPE_UPDATE_MALFORMED', what, update);
      return;
    }
    const nonFinite = nonFiniteField(update);
    if (nonFinite !== undefined) {
      reject(sink, origin, timestamp, 'DT_ERR_PIPE_UPDATE_NOT_FINITE', nonFiniteMessage(nonFinite, update), update);
      return;
    }
    const rows = this.#rows;
    const row = rows.row(set, origin, tableIndex, timestamp, sink);
    if (row === undefined) return;
    const isNew = rows.rowIsNew;
    if (isNew) rows.begin(set, row, timestamp, sink);
    rows.reading(set, row, plan, update['rawValue'], update['value'], quality, timestamp, sink);
    const calculations = isNew ? set.plan.calcOrder : itemAt(set.plan.dependents, plan.index);
    if (calculations.length > 0) rows.calculate(set, row, calculations, isNew, timestamp, sink);
    rows.finish(set, row, timestamp, sink);
  }
}
