import type { SetPlan } from './compile-pipeline.js';
import { itemAt } from './item-at.js';
import type { RowSnapshot, SetSnapshot } from './pipeline-types.js';
import { ALERT, type OriginTable, type RowState } from './row-state.js';

/** The current values and raised alarms of one set, rows in the order they appeared. */
export function snapshotSet(plan: SetPlan, origins: ReadonlyMap<string, OriginTable>): SetSnapshot {
  const rows: RowSnapshot[] = [];
  for (const table of origins.values()) for (const row of table.rows.values()) rows.push(snapshotRow(plan, row));
  return { datapointSetId: plan.id, datapointSetType: plan.type, rows };
}

function snapshotRow(plan: SetPlan, row: RowState): RowSnapshot {
  const values: Record<string, RowSnapshot['values'][string]> = {};
  const activeAlarms: { datapointId: string; severity: number }[] = [];
  for (const datapoint of plan.datapoints) {
    const entry = itemAt(row.entries, datapoint.index);
    if (entry.seen) {
      values[datapoint.id] = {
        value: entry.value,
        ...(entry.unit !== undefined ? { unit: entry.unit } : {}),
        rawValue: entry.rawValue,
        quality: entry.quality,
        timestamp: entry.timestamp,
        ...(entry.defaulted ? { defaulted: true as const } : {}),
      };
    }
    for (const alert of datapoint.alerts) {
      if (!alert.isLog && row.alerts[alert.slot] === ALERT.RAISED)
        activeAlarms.push({ datapointId: datapoint.id, severity: alert.severity });
    }
  }
  return {
    origin: row.origin,
    ...(row.tableIndex !== undefined ? { tableIndex: row.tableIndex } : {}),
    visible: row.visible,
    values,
    activeAlarms,
  };
}
