import type { LogLevel } from './log-level.js';

/** One log entry of a node. */
export interface NodeLogEntry {
  /** The node's event time, µs since the epoch. */
  readonly timeUs: number;
  readonly level: LogLevel;
  /** `crash_report`, `supervisor_report`, `progress_report`, `logger_event`, `code_loaded`, `code_purged`. */
  readonly kind: string;
  readonly text: string;
}
