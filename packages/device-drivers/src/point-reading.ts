import type { DatapointUpdate } from '@triad/device-templates';
import type { PointRequest } from './driver.js';

/** One datapoint's reading: `null` (the device gave nothing usable) has quality `bad`, anything else `good`. */
export function pointReading(
  point: Pick<PointRequest, 'datapointSetId' | 'datapointId'>,
  rawValue: unknown,
  timestamp: number,
): DatapointUpdate {
  return {
    datapointSetId: point.datapointSetId,
    datapointId: point.datapointId,
    rawValue,
    quality: rawValue === null ? 'bad' : 'good',
    timestamp,
  };
}

/** The readings of `points` from the values read, one timestamp for all; a point without a value reads `null`. */
export function pointReadings(
  points: readonly PointRequest[],
  values: ReadonlyMap<PointRequest, unknown>,
  timestamp = Date.now(),
): DatapointUpdate[] {
  return points.map((point) => pointReading(point, values.has(point) ? values.get(point) : null, timestamp));
}
