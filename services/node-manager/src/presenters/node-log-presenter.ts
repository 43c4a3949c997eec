import type { NodeLogEntry } from '../model/node-log-entry.js';

/** A log entry as `GET /api/logs/node/{node_id}` and the live feed show it. */
export interface PresentedNodeLog {
  /** The node's event time, ms since the epoch. */
  readonly time: number;
  readonly level: string;
  readonly kind: string;
  readonly text: string;
}

/** Every field a client sees of a log entry. */
export function presentNodeLog(entry: NodeLogEntry): PresentedNodeLog {
  return { time: Math.floor(entry.timeUs / 1000), level: entry.level, kind: entry.kind, text: entry.text };
}
