import {
  isTableIndex,
  nonFiniteField,
  nonFiniteMessage,
  readableDatapoint,
  reject,
  type LooseInput,
} from './input-checks.js';
import type { PipelineProblemCode } from './pipeline-problems.js';
import type { PipelineSink, TableCell, TableIndex } from './pipeline-types.js';
import type { RowProcessor } from './row-processor.js';
import { rowKey } from './row-state.js';
import type { SetRuntime } from './set-runtime.js';
import { tableIndexOfCells } from './table-index.js';

/** `{datapointSetId, tableIndex, removed: true}`: drops one row of a tableDynamic set (its raised alarms clear). */
export function applyRowRemoval(
  rows: RowProcessor,
  set: SetRuntime,
  origin: string,
  timestamp: number,
  removal: LooseInput,
  sink: PipelineSink,
): void {
  const tableIndex = removal['tableIndex'];
  const problem: [PipelineProblemCode, string] | undefined = !set.plan.isTable
    ? ['DT_ERR_PIPE_UPDATE_NOT_TABLE', `'${set.plan.id}' is a map set; only table rows can be removed`]
    : set.plan.type === 'tableStatic'
      ? ['DT_ERR_PIPE_UPDATE_ROW_STATIC', `'${set.plan.id}' is a tableStatic set; its rows cannot be removed`]
      : !isTableIndex(tableIndex)
        ? ['DT_ERR_PIPE_UPDATE_MALFORMED', 'a row removal needs tableIndex (a string or a number)']
        : undefined;
  if (problem !== undefined) {
    reject(sink, origin, timestamp, problem[0], problem[1], removal);
    return;
  }
  const table = set.table(origin);
  const key = rowKey(tableIndex as TableIndex);
  const row = table.rows.get(key);
  if (row === undefined) {
    reject(
      sink,
      origin,
      timestamp,
      'DT_ERR_PIPE_UPDATE_ROW_UNKNOWN',
      `the set '${set.plan.id}' has no row ${JSON.stringify(tableIndex)} to remove`,
      removal,
    );
    return;
  }
  rows.drop(set, table, key, row, timestamp, sink);
}

/**
 * `{datapointSetId, rows: [[cell, ...], ...]}`: the whole table. Rows are keyed by their index
 * values (`tableIndexOfCells`). tableDynamic: rows not listed go first (their alarms clear), then
 * each listed row is updated or created. tableStatic: the first table update fixes the row set;
 * later ones update known rows and reject the others, and never remove a row.
 */
export function applyTableUpdate(
  rows: RowProcessor,
  set: SetRuntime,
  origin: string,
  timestamp: number,
  update: LooseInput,
  sink: PipelineSink,
): void {
  const list = update['rows'];
  if (!set.plan.isTable) {
    reject(
      sink,
      origin,
      timestamp,
      'DT_ERR_PIPE_UPDATE_NOT_TABLE',
      `'${set.plan.id}' is a map set; send its datapoints one by one`,
      update,
    );
    return;
  }
  if (
    !Array.isArray(list) ||
    !list.every(
      (row) =>
        Array.isArray(row) && row.every((cell) => typeof cell === 'object' && cell !== null && !Array.isArray(cell)),
    )
  ) {
    reject(
      sink,
      origin,
      timestamp,
      'DT_ERR_PIPE_UPDATE_MALFORMED',
      'rows must be an array of rows, each an array of {datapointId, rawValue?, value?} cells',
      update,
    );
    return;
  }
  const cellsByRow = list as readonly (readonly TableCell[])[];
  const indexes = cellsByRow.map((cells, position) => tableIndexOfCells(set.plan, cells, position));
  const table = set.table(origin);
  if (set.plan.type === 'tableDynamic') {
    const keep = new Set(indexes.map(rowKey));
    for (const [key, row] of [...table.rows]) if (!keep.has(key)) rows.drop(set, table, key, row, timestamp, sink);
  }
  cellsByRow.forEach((cells, i) => {
    const tableIndex = indexes[i]!;
    const row = rows.row(set, origin, tableIndex, timestamp, sink);
    if (row === undefined) return;
    const isNew = rows.rowIsNew;
    if (isNew) rows.begin(set, row, timestamp, sink);
    for (const cell of cells as readonly unknown[] as readonly LooseInput[]) {
      const placed = { ...cell, tableIndex };
      const plan = readableDatapoint(set, origin, timestamp, placed, sink);
      if (plan === undefined) continue;
      const quality = cell['quality'] ?? 'good';
      const stamp = cell['timestamp'] ?? timestamp;
      if (typeof quality !== 'string' || typeof stamp !== 'number' || !Number.isFinite(stamp)) {
        reject(
          sink,
          origin,
          timestamp,
          'DT_ERR_PIPE_UPDATE_MALFORMED',
          'a cell needs quality as a string and timestamp as epoch milliseconds',
          placed,
          set.plan.id,
        );
        continue;
      }
      const nonFinite = nonFiniteField(cell);
      if (nonFinite !== undefined) {
        const message = nonFiniteMessage(nonFinite, cell);
        reject(sink, origin, timestamp, 'DT_ERR_PIPE_UPDATE_NOT_FINITE', message, placed, set.plan.id);
        continue;
      }
      rows.reading(set, row, plan, cell['rawValue'], cell['value'], quality, stamp, sink);
    }
    rows.calculate(set, row, set.plan.calcOrder, isNew, timestamp, sink);
    rows.finish(set, row, timestamp, sink);
  });
  if (set.plan.type === 'tableStatic') table.fixed = true;
}
