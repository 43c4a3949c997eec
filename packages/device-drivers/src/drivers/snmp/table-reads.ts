/**
 * Table sets: the columns of a set are walked together and become one `TableUpdate`, one row per
 * instance (the OID suffix after the column: `1` for ifIndex 1, `9.116.101...` for a string
 * index). A column's `originAddress` is its full OID, or its number within the entry
 * `rootAddress.1` (`rootAddress` is the table OID; it may also be the entry when some column is
 * a full OID). The pipeline keys rows by the set's `indexes` datapoints; a row whose index
 * datapoints were not read (not addressed, not accessible) gets them from the OID suffix, so a
 * row keeps its key from poll to poll and `tableDynamic` rows come and go with the agent's.
 */
import type { TableCell, TableUpdate } from '@triad/device-templates';
import type { PointRequest, TableRequest } from '../../driver.js';
import type { SnmpClient } from './snmp-client.js';
import type { SnmpSettings } from './snmp-settings.js';
import { walkColumns, type ColumnValues } from './column-walk.js';
import { compareOids, isBelow, normalizeOid, type OidResolver } from './oid.js';
import { readingOf } from './snmp-values.js';

export interface ResolvedColumn {
  readonly point: PointRequest;
  /** The column OID, or `undefined` when the address names none. */
  readonly oid: string | undefined;
}

/** Each column datapoint's column OID; addresses are OIDs or, through `resolve`, MIB names. */
export function resolveColumns(table: TableRequest, resolve: OidResolver = normalizeOid): ResolvedColumn[] {
  const root = resolve(table.rootAddress);
  const full = table.columns.map((point) =>
    /^\d+$/.test(point.originAddress.trim()) ? undefined : resolve(point.originAddress),
  );
  // The entry: the parent of a full column OID under the root, else rootAddress.1.
  const under = root === undefined ? undefined : full.find((oid) => oid !== undefined && isBelow(root, oid));
  const entry = under !== undefined ? under.slice(0, under.lastIndexOf('.')) : root && `${root}.1`;
  return table.columns.map((point, i) => {
    const relative = point.originAddress.trim();
    const oid = /^\d+$/.test(relative) ? entry && `${entry}.${Number(relative)}` : full[i];
    return { point, oid };
  });
}

export async function readTable(
  client: SnmpClient,
  settings: SnmpSettings,
  table: TableRequest,
  signal: AbortSignal,
  log?: (message: string) => void,
  resolve: OidResolver = normalizeOid,
): Promise<TableUpdate> {
  const columns = resolveColumns(table, resolve);
  for (const { point, oid } of columns)
    if (oid === undefined)
      log?.(
        `${table.datapointSetId}/${point.datapointId}: '${point.originAddress}' names no column ` +
          `(give the column OID or MIB name, or its number with the table OID as rootAddress)`,
      );
  const oids = columns.flatMap(({ oid }) => (oid === undefined ? [] : [oid]));
  const walked: ColumnValues =
    oids.length === 0 ? new Map<string, never>() : await walkColumns(client, settings, oids, signal);
  const timestamp = Date.now();
  const suffixes = new Set<string>();
  for (const rows of walked.values()) for (const suffix of rows.keys()) suffixes.add(suffix);
  const rows = [...suffixes].sort(compareOids).map((suffix) => {
    const cells: TableCell[] = columns.map(({ point, oid }) => {
      const varbind = oid === undefined ? undefined : walked.get(oid)?.get(suffix);
      const reading = varbind === undefined ? { rawValue: null, quality: 'bad' } : readingOf(varbind, point);
      return { datapointId: point.datapointId, rawValue: reading.rawValue, quality: reading.quality, timestamp };
    });
    return withIndexCells(table, cells, suffix, timestamp);
  });
  return { datapointSetId: table.datapointSetId, rows, timestamp };
}

/**
 * Fills the index datapoints a row lacks from its OID suffix: with one index the whole suffix
 * (a number when it is one component), with several one component each and the rest to the
 * last, so that the pipeline's key (the index values joined by `.`) is the suffix itself.
 */
export function withIndexCells(
  table: Pick<TableRequest, 'indexes' | 'columns'>,
  cells: TableCell[],
  suffix: string,
  timestamp: number,
): TableCell[] {
  if (table.indexes.length === 0) return cells;
  const usable = (id: string) => {
    const cell = cells.find((c) => c.datapointId === id);
    const value = cell?.value ?? cell?.rawValue;
    return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
  };
  if (table.indexes.every(usable)) return cells;
  const parts = suffix.split('.');
  const count = table.indexes.length;
  const values = table.indexes.map((_, i) => (i < count - 1 ? (parts[i] ?? '') : parts.slice(count - 1).join('.')));
  const filled = cells.filter((cell) => !table.indexes.includes(cell.datapointId) || usable(cell.datapointId));
  table.indexes.forEach((id, i) => {
    if (usable(id)) return;
    const text = values[i]!;
    const point = table.columns.find((column) => column.datapointId === id);
    const rawValue = point?.dataType !== 'STRING' && /^\d+$/.test(text) ? Number(text) : text;
    filled.push({ datapointId: id, rawValue, quality: 'good', timestamp });
  });
  return filled;
}
