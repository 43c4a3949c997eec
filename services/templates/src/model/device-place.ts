import type { TableIndex } from '@triad/device-templates';

/** The row of a table set as the device API names it: its key as text, null for a map set. */
export function rowOf(tableIndex: TableIndex | undefined): string | null {
  return tableIndex === undefined ? null : String(tableIndex);
}

/** One datapoint of one row of a device, as a map key. */
export function placeKey(datapointSetId: string, datapointId: string, row: string | null): string {
  return `${datapointSetId}\u0000${datapointId}\u0000${row ?? ''}`;
}
