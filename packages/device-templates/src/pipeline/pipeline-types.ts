/**
 * The public shapes of the value pipeline: what a driver feeds in, what comes out. See
 * docs/pipeline.md for the stage order and docs/decisions/0006-value-pipeline.md for the reasons.
 */
import type { Routing } from '../generated/device-template.generated.js';

/** A table row as named in updates and results: the driver's `tableIndex`, or the row's index values. */
export type TableIndex = string | number;

/**
 * One datapoint reading, as a driver publishes it plus the set it belongs to. At least one of
 * `rawValue` and `value` is normally present; `null` and absent mean "no reading".
 */
export interface DatapointUpdate {
  /** Device the reading is from; default `EvaluatorOptions.origin`, then the template's `origin`. */
  readonly origin?: string;
  readonly datapointSetId: string;
  readonly datapointId: string;
  readonly rawValue?: unknown;
  readonly value?: unknown;
  /** Default `good`. */
  readonly quality?: string;
  /** Epoch milliseconds; default `EvaluatorOptions.now()`. */
  readonly timestamp?: number;
  /** Table sets only: the row. Default 0 (the driver API's default). Ignored by `map` sets. */
  readonly tableIndex?: TableIndex;
}

/** Removes one row of a `tableDynamic` set: its values go and its raised alarms clear. */
export interface RowRemoval {
  readonly origin?: string;
  readonly datapointSetId: string;
  readonly tableIndex: TableIndex;
  readonly removed: true;
  readonly timestamp?: number;
}

/** One cell of a bulk table update (the driver API's `DataSetEntry`). */
export interface TableCell {
  readonly datapointId: string;
  readonly rawValue?: unknown;
  readonly value?: unknown;
  readonly quality?: string;
  readonly timestamp?: number;
}

/**
 * The whole content of a table set at once (the driver API's `publishBulk`). Each row is keyed
 * by the values of the set's `tableAddress.indexes` datapoints (joined with `.` when there are
 * several), or by its position when the row lacks them. For `tableDynamic` the rows not listed
 * disappear; for `tableStatic` the first bulk update fixes the row set.
 */
export interface TableUpdate {
  readonly origin?: string;
  readonly datapointSetId: string;
  readonly rows: readonly (readonly TableCell[])[];
  readonly timestamp?: number;
}

/** Anything `TemplateEvaluator.update` accepts. */
export type PipelineInput = DatapointUpdate | RowRemoval | TableUpdate;

/** The value of one datapoint after the pipeline. */
export interface DatapointResult {
  readonly origin: string;
  readonly datapointSetId: string;
  readonly datapointId: string;
  /** Table sets only. */
  readonly tableIndex?: TableIndex;
  readonly value: unknown;
  readonly rawValue: unknown;
  /** The unit abbreviation (convert-units 2.x) when `unitsConfig.units` is true or `toBest` chose it. */
  readonly unit?: string;
  readonly quality: string;
  readonly timestamp: number;
  /** True when `defaultValueConfig` supplied the value or the raw value. */
  readonly defaulted?: true;
}

/**
 * Severity band names. INFERRED from the driver API's notifier base values (1, 201, 401, 601,
 * 801); the vendor's own table is not public.
 */
export type SeverityLevel = 'notification' | 'info' | 'warning' | 'error' | 'critical';

/** The fields of an alert evaluation that every event it causes carries, as the template gives them. */
export interface AlertFields {
  readonly severity: number;
  readonly level: SeverityLevel;
  readonly text: string;
  readonly textHelp: string;
  readonly facility: number;
  readonly hidden: boolean;
  readonly audited: boolean;
  readonly broadcast: boolean;
}

/** Where an event comes from: the datapoint and, for tables, the row. */
export interface EventPlace {
  readonly origin: string;
  readonly datapointSetId: string;
  readonly datapointId: string;
  readonly tableIndex?: TableIndex;
  readonly timestamp: number;
}

/**
 * An alert evaluation changed state: an alarm (severity 201..1000) is raised or cleared, or a
 * log evaluation (1..200) became true. The fields are the evaluation's own.
 */
export interface AlertEvent extends EventPlace, AlertFields {
  readonly type: 'alarm-raised' | 'alarm-cleared' | 'log';
  readonly routing?: Routing;
  /** The datapoint's value when the condition changed (absent when a row removal clears it). */
  readonly value?: unknown;
  /** Why an alarm cleared without its condition turning false. */
  readonly reason?: 'row-removed';
}

/** Which step of the pipeline failed. */
export type PipelineStage = 'conversion' | 'units' | 'calculation' | 'alert' | 'row-filter';

/**
 * An expression or a unit conversion failed for one datapoint. The rest of the update, and of
 * the batch, goes on; see docs/pipeline.md for what each stage keeps.
 */
export interface EvaluationErrorEvent extends EventPlace {
  readonly type: 'evaluation-error';
  readonly stage: PipelineStage;
  /** `DT_ERR_EVAL_*` (expression) or `DT_ERR_PIPE_*` (pipeline). */
  readonly code: string;
  readonly message: string;
  /** The failing evaluation's severity (stage `alert`). */
  readonly severity?: number;
  /** The failing expression. */
  readonly expression?: string;
}

/** An input the pipeline could not use: unknown set, datapoint or row, or a malformed shape. */
export interface UpdateRejectedEvent {
  readonly type: 'update-rejected';
  readonly origin: string;
  readonly datapointSetId?: string;
  readonly datapointId?: string;
  readonly tableIndex?: TableIndex;
  readonly timestamp: number;
  /** `DT_ERR_PIPE_UPDATE_*`. */
  readonly code: string;
  readonly message: string;
}

export type PipelineEvent = AlertEvent | EvaluationErrorEvent | UpdateRejectedEvent;

/** What one update (or a batch) produced, in the order produced. */
export interface PipelineOutput {
  readonly values: DatapointResult[];
  readonly events: PipelineEvent[];
}

/** Receives results as they are produced (`TemplateEvaluator.feed`): no arrays are built. */
export interface PipelineSink {
  value(result: DatapointResult): void;
  event(event: PipelineEvent): void;
}

/** One row (or a map set's only row) in a snapshot. */
export interface RowSnapshot {
  readonly origin: string;
  readonly tableIndex?: TableIndex;
  /** False when a row filter hides the row. */
  readonly visible: boolean;
  /** The datapoints that have a value, by datapointId. */
  readonly values: Readonly<
    Record<string, Omit<DatapointResult, 'origin' | 'datapointSetId' | 'datapointId' | 'tableIndex'>>
  >;
  /** Raised alarms, `{datapointId, severity}`, in template order. */
  readonly activeAlarms: readonly { readonly datapointId: string; readonly severity: number }[];
}

export interface SetSnapshot {
  readonly datapointSetId: string;
  readonly datapointSetType: 'map' | 'tableStatic' | 'tableDynamic';
  readonly rows: readonly RowSnapshot[];
}

export interface EvaluatorOptions {
  /** Origin of updates that name none; default the template's `origin`. */
  readonly origin?: string;
  /** Clock for updates without a timestamp (epoch ms); default `Date.now`. */
  readonly now?: () => number;
}

/**
 * A template's pipeline with its state (last values, table rows, alarm states). Never throws for
 * bad input: unusable updates become `update-rejected` events, failing expressions
 * `evaluation-error` events. Not safe for concurrent use from several workers (it has none).
 */
export interface TemplateEvaluator {
  /** Runs one input through the pipeline. */
  update(input: PipelineInput): PipelineOutput;
  /** Runs inputs in order; the outputs are concatenated. */
  updateBatch(inputs: Iterable<PipelineInput>): PipelineOutput;
  /** The hot path: like `update`, but results go to `sink` as they are produced. */
  feed(input: PipelineInput, sink: PipelineSink): void;
  /** Current values and raised alarms per set and row, sets in template order. */
  snapshot(): SetSnapshot[];
  /** Forgets every value, row and alarm state, without events: the next update is a start-up. */
  reset(): void;
}
