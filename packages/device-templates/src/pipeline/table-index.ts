import type { SetPlan } from './compile-pipeline.js';
import { itemAt } from './item-at.js';
import type { TableCell, TableIndex } from './pipeline-types.js';

/**
 * The row a bulk table row belongs to: the value (or, without one, the raw value) of the set's
 * `tableAddress.indexes` datapoints as sent in the row, joined with `.` when there are several
 * (like the instance suffix of an SNMP table row: `1.2`); one index keeps its type (`3`, `'eth0'`).
 * When the set declares no indexes or the row lacks a usable index value (a string or a finite
 * number), the row's position in the update names it.
 */
export function tableIndexOfCells(set: SetPlan, cells: readonly TableCell[], position: number): TableIndex {
  if (set.indexes.length === 0) return position;
  const parts: TableIndex[] = [];
  for (const index of set.indexes) {
    const id = itemAt(set.datapoints, index).id;
    const cell = cells.find((c) => c.datapointId === id);
    const value = cell?.value ?? cell?.rawValue;
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) parts.push(value);
    else return position;
  }
  const [only] = parts;
  return parts.length === 1 && only !== undefined ? only : parts.join('.');
}
