import { errorMessage } from '@triad/common';
import type { PointRequest, ReadRequest } from './driver.js';

/**
 * The scalar points of a request parsed with `parse` (address and type); a point `parse` refuses
 * is left out (it reads `bad`) and its reason reported. Drivers that read map sets only report
 * each table set as not read.
 */
export function parsePoints<T>(
  request: ReadRequest,
  parse: (point: PointRequest) => T,
  report: (message: string) => void,
  tablesNotRead: string,
): T[] {
  for (const table of request.tables) report(`table set ${table.datapointSetId} is not read: ${tablesNotRead}`);
  const parsed: T[] = [];
  for (const point of request.points) {
    try {
      parsed.push(parse(point));
    } catch (error) {
      report(`${point.datapointSetId}/${point.datapointId}: ${errorMessage(error)}`);
    }
  }
  return parsed;
}
