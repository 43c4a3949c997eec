/** The time ranges the console's trend charts offer, and their bounds. */

/** A time range a chart's range picker offers. */
export interface HistoryRange {
  readonly id: '1h' | '24h' | '7d' | '30d';
  /** What the range button says. */
  readonly label: string;
  readonly ms: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Every range a picker may offer, shortest first. */
export const HISTORY_RANGES: readonly HistoryRange[] = [
  { id: '1h', label: '1 h', ms: HOUR },
  { id: '24h', label: '24 h', ms: DAY },
  { id: '7d', label: '7 d', ms: 7 * DAY },
  { id: '30d', label: '30 d', ms: 30 * DAY },
];

/** `from` and `to` (ms, inclusive) of `range` ending at `now`. */
export function rangeBounds(range: HistoryRange, now: number): { readonly from: number; readonly to: number } {
  return { from: now - range.ms, to: now };
}
