import type { DatapointValue } from '../expressions/expression-types.js';
import type { SetPlan } from './compile-pipeline.js';
import { itemAt } from './item-at.js';
import type { TableIndex } from './pipeline-types.js';

/**
 * The current state of one datapoint in one row. It is also what expressions see as
 * `datapoints.<id>` (a datapoint without a value yet reads as value and rawValue null).
 */
export class EntryState implements DatapointValue {
  value: unknown = null;
  rawValue: unknown = null;
  quality = 'good';
  timestamp = 0;
  unit: string | undefined = undefined;
  seen = false;
  defaulted = false;
}

/** Alert-state values, one per evaluation and row. */
export const ALERT = Object.freeze({
  /** Not evaluated yet in this row: the next result is the start-up one. */
  NEVER: 0,
  /** Last result false. */
  FALSE: 1,
  /** Last result true, and the raise (or log) was emitted. */
  RAISED: 2,
  /** Last result true at start-up with `onStartup: false`: nothing was emitted, nothing to clear. */
  SILENT: 3,
});

/** One row of a table set, or the only row of a map set, for one origin. */
export class RowState {
  readonly origin: string;
  /** Table sets only. */
  readonly tableIndex: TableIndex | undefined;
  readonly entries: EntryState[];
  /** `datapoints` of the expression context: every datapoint of the row by id. */
  readonly record: Record<string, EntryState>;
  readonly alerts: Uint8Array;
  /** Last result of each row filter (1 = passes), by position in `SetPlan.rowFilters`. */
  readonly filterResults: Uint8Array;
  visible = true;

  constructor(plan: SetPlan, origin: string, tableIndex: TableIndex | undefined) {
    this.origin = origin;
    this.tableIndex = tableIndex;
    this.entries = plan.datapoints.map(() => new EntryState());
    // No prototype: a datapointId such as __proto__ must be an ordinary key.
    this.record = Object.create(null) as Record<string, EntryState>;
    for (const datapoint of plan.datapoints) this.record[datapoint.id] = itemAt(this.entries, datapoint.index);
    this.alerts = new Uint8Array(plan.alertSlots);
    this.filterResults = new Uint8Array(plan.rowFilters.length).fill(1);
  }
}

/** The rows of one set for one origin. */
export class OriginTable {
  readonly rows = new Map<string, RowState>();
  /** tableStatic: set by the first table update; afterwards no row can be added. */
  fixed = false;
}

/** The key of a row in `OriginTable.rows`: numbers and their canonical text name the same row. */
export function rowKey(tableIndex: TableIndex): string {
  return typeof tableIndex === 'string' ? tableIndex : String(tableIndex);
}
