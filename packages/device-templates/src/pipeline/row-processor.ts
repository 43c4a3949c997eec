import type { DatapointPlan } from './datapoint-plan.js';
import { DatapointRunner } from './datapoint-runner.js';
import { itemAt } from './item-at.js';
import { failureOf, makeAlertEvent, makeErrorEvent, makeRejection, makeResult } from './pipeline-events.js';
import type { PipelineSink, TableIndex } from './pipeline-types.js';
import { ALERT, RowState, rowKey, type OriginTable } from './row-state.js';
import type { SetRuntime } from './set-runtime.js';

/**
 * The row-level steps shared by every kind of input: find or create the row, give a new row its
 * constants, run readings through stages 1–4, run the calculations that are due (5), then the
 * alerts (6) and row filters (7), and emit the values; drop a row. One update of a row is
 * `row` -> `begin` (new rows) -> `reading`... -> `calculate` -> `finish`.
 */
export class RowProcessor {
  readonly #runner = new DatapointRunner();
  /** Set by `row`: whether the row it returned was created by that call. */
  rowIsNew = false;

  /** The row an input addresses, created on first sight unless a fixed tableStatic forbids it (then rejected). */
  row(
    set: SetRuntime,
    origin: string,
    tableIndex: TableIndex | undefined,
    timestamp: number,
    sink: PipelineSink,
  ): RowState | undefined {
    const table = set.table(origin);
    const key = tableIndex === undefined ? '' : rowKey(tableIndex);
    const row = table.rows.get(key);
    if (row !== undefined) {
      this.rowIsNew = false;
      return row;
    }
    if (table.fixed) {
      const message =
        `the tableStatic set '${set.plan.id}' has no row ${JSON.stringify(tableIndex)}; its rows were ` +
        `fixed by its first table update`;
      sink.event(
        makeRejection(origin, timestamp, 'DT_ERR_PIPE_UPDATE_ROW_UNKNOWN', message, {
          datapointSetId: set.plan.id,
          tableIndex,
        }),
      );
      return undefined;
    }
    const created = new RowState(set.plan, origin, tableIndex);
    table.rows.set(key, created);
    this.rowIsNew = true;
    return created;
  }

  /** A new row: constant datapoints take their defaults (calculations follow in `calculate`). */
  begin(set: SetRuntime, row: RowState, timestamp: number, sink: PipelineSink): void {
    for (const index of set.plan.constants)
      this.reading(set, row, itemAt(set.plan.datapoints, index), null, null, 'good', timestamp, sink);
  }

  /** Stages 1–4 for one reading of a driver. */
  reading(
    set: SetRuntime,
    row: RowState,
    plan: DatapointPlan,
    rawValue: unknown,
    value: unknown,
    quality: string,
    timestamp: number,
    sink: PipelineSink,
  ): void {
    if (this.#runner.process(set.plan, row, plan, rawValue, value, quality, timestamp, sink)) set.markDirty(plan.index);
  }

  /** Stage 5: each calculation of `order` runs when one of its inputs changed (or, in a new row, when it has none). */
  calculate(
    set: SetRuntime,
    row: RowState,
    order: readonly number[],
    isNew: boolean,
    timestamp: number,
    sink: PipelineSink,
  ): void {
    const dirty = set.dirty;
    for (const index of order) {
      const plan = itemAt(set.plan.datapoints, index);
      const inputs = plan.calc?.inputs ?? [];
      let due = isNew && inputs.length === 0;
      for (const input of inputs) {
        if (due) break;
        due = dirty[input] === 1;
      }
      if (due && this.#runner.calculate(set.plan, row, plan, timestamp, sink)) set.markDirty(plan.index);
    }
  }

  /**
   * Stage 6 (alerts of every datapoint whose value changed, in the order they changed), stage 7
   * (row filters), then the values: only of visible rows; a row that becomes visible sends all
   * its values.
   */
  finish(set: SetRuntime, row: RowState, timestamp: number, sink: PipelineSink): void {
    const plan = set.plan;
    for (let i = 0; i < set.changedCount; i++) {
      const datapoint = itemAt(plan.datapoints, set.changedAt(i));
      if (datapoint.alerts.length > 0) this.#runner.runAlerts(plan, row, datapoint, sink);
    }
    const wasVisible = row.visible;
    if (plan.rowFilters.length > 0) {
      let visible = true;
      for (const [i, index] of plan.rowFilters.entries()) {
        const datapoint = itemAt(plan.datapoints, index);
        try {
          row.filterResults[i] = this.#runner.rowFilterPasses(row, datapoint) ? 1 : 0;
        } catch (error) {
          // The filter keeps its previous result.
          sink.event(
            makeErrorEvent(plan, datapoint, row, 'row-filter', failureOf(error), timestamp, this.#runner.failedSource),
          );
        }
        if (row.filterResults[i] === 0) visible = false;
      }
      row.visible = visible;
    }
    if (row.visible && wasVisible) {
      for (let i = 0; i < set.changedCount; i++) {
        const index = set.changedAt(i);
        sink.value(makeResult(plan, itemAt(plan.datapoints, index), row, itemAt(row.entries, index)));
      }
    } else if (row.visible) {
      for (const datapoint of plan.datapoints) {
        const entry = itemAt(row.entries, datapoint.index);
        if (entry.seen) sink.value(makeResult(plan, datapoint, row, entry));
      }
    }
    set.clearDirty();
  }

  /** A row goes: its raised alarms clear (reason `row-removed`), then its state is forgotten. */
  drop(set: SetRuntime, table: OriginTable, key: string, row: RowState, timestamp: number, sink: PipelineSink): void {
    for (const datapoint of set.plan.datapoints) {
      for (const alert of datapoint.alerts) {
        if (row.alerts[alert.slot] === ALERT.RAISED && !alert.isLog)
          sink.event(
            makeAlertEvent('alarm-cleared', set.plan, datapoint, alert, row, timestamp, undefined, 'row-removed'),
          );
      }
    }
    table.rows.delete(key);
  }
}
