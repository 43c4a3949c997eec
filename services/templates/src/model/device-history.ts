/**
 * Device value history as the domain sees it (decision 0050): a value as stored, the shapes a
 * query answers, and `planHistoryQuery`, which picks the table and bucket length of a query.
 */

/** One collected value of one datapoint (and table row) of a device, as stored. */
export interface HistoryValue {
  readonly deviceId: string;
  readonly setId: string;
  /** The datapoint. */
  readonly datapointId: string;
  /** The table row's key; '' in a map set. */
  readonly row: string;
  /** Epoch ms. */
  readonly at: number;
  /** Numbers as they are, booleans as 0/1; null for strings and for values without one. */
  readonly value: number | null;
  /** Strings (and other values as JSON), cut to `HISTORY_TEXT_MAX`; null otherwise. */
  readonly text: string | null;
}

/** A raw value of a series. */
export interface HistoryPoint {
  readonly at: number;
  readonly value: number | null;
  readonly text: string | null;
}

/** The numbers of one series in one bucket (`at` its start, a multiple of the step since the epoch). */
export interface HistoryBucket {
  readonly at: number;
  readonly min: number;
  readonly max: number;
  readonly avg: number;
  readonly count: number;
}

/** Length of a downsampled row, ms. */
export const HISTORY_MINUTE_MS = 60_000;
/** Hour rows: buckets of whole hours are read from them. */
export const HISTORY_HOUR_MS = 3_600_000;
/** Ranges longer than this are answered in steps of whole hours (from the hour rows). */
export const HOURLY_RANGE_MS = 7 * 86_400_000;
/** Most points or buckets in one answer. */
export const MAX_HISTORY_POINTS = 2_000;
/** Longest range of one query, ms: 400 days (more than a year of minute data, if kept that long). */
export const MAX_HISTORY_RANGE_MS = 400 * 86_400_000;
/** Shortest bucket, ms. */
export const MIN_HISTORY_STEP_MS = 1_000;
/**
 * Most values in one history transaction. Every batch rewrites the last page of each of its series
 * in three tables, so values per page written, not rows, set the cost: a second's values of a
 * busy service in one transaction (decision 0050, "History batches on a thread of their own").
 */
export const HISTORY_BATCH_SIZE = 50_000;
/** Longest stored text value, characters. */
export const HISTORY_TEXT_MAX = 1_000;

/** Bucket lengths chosen when a query names none, ms: the shortest that fits `MAX_HISTORY_POINTS`. */
const NICE_STEPS_MS = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 172_800, 604_800,
].map((seconds) => seconds * 1000);

/** What a query reads: raw points (`step` 0), or buckets of `step` ms from the raw or minute table. */
export interface HistoryPlan {
  readonly source: 'raw' | 'minute';
  readonly step: number;
}

/** Why a query cannot be answered, in the user's words. */
export interface HistoryPlanProblem {
  readonly problem: string;
}

export interface HistoryQuery {
  readonly from: number;
  readonly to: number;
  /** Bucket length asked for, ms; absent: chosen here. */
  readonly step?: number | undefined;
  /** Now, epoch ms. */
  readonly now: number;
  /** How long raw values are kept, ms. */
  readonly rawRetentionMs: number;
}

/**
 * Picks the table and bucket length of a query: the raw table while the range starts within the
 * raw retention, else the minute table (whose buckets are whole minutes: a step is rounded up).
 * Without a step, raw points of a raw range (the caller falls back to `autoStep` when there are
 * more than `MAX_HISTORY_POINTS`), and the shortest bucket fitting `MAX_HISTORY_POINTS` otherwise.
 */
export function planHistoryQuery(query: HistoryQuery): HistoryPlan | HistoryPlanProblem {
  const { from, to, step } = query;
  if (to < from) return { problem: `from (${from}) is after to (${to}): give from <= to` };
  if (to - from > MAX_HISTORY_RANGE_MS)
    return { problem: `the range is longer than ${MAX_HISTORY_RANGE_MS / 86_400_000} days: ask for a shorter one` };
  const source = from >= query.now - query.rawRetentionMs ? 'raw' : 'minute';
  if (step === undefined) return { source, step: source === 'raw' ? 0 : autoStep(from, to, source) };
  const effective = source === 'minute' ? Math.ceil(step / HISTORY_MINUTE_MS) * HISTORY_MINUTE_MS : step;
  if (bucketCount(from, to, effective) > MAX_HISTORY_POINTS) {
    const least = leastStep(from, to, source === 'minute' ? HISTORY_MINUTE_MS : MIN_HISTORY_STEP_MS);
    return {
      problem:
        `step ${step} ms gives more than ${MAX_HISTORY_POINTS} buckets over this range: ` +
        `give a step of at least ${least} ms, or none to have one chosen`,
    };
  }
  return { source, step: effective };
}

/**
 * The step chosen when none is asked for: the shortest nice bucket length fitting
 * `MAX_HISTORY_POINTS`, at least a minute for the minute table, and whole hours for a range of
 * more than a week (read from the hour rows: 720 buckets for 30 days instead of 43,200 rows).
 */
export function autoStep(from: number, to: number, source: HistoryPlan['source']): number {
  if (source === 'minute' && to - from > HOURLY_RANGE_MS) return leastStep(from, to, HISTORY_HOUR_MS);
  return leastStep(from, to, source === 'minute' ? HISTORY_MINUTE_MS : MIN_HISTORY_STEP_MS);
}

/** The shortest nice bucket length of at least `floor` ms fitting `MAX_HISTORY_POINTS`. */
function leastStep(from: number, to: number, floor: number): number {
  for (const step of NICE_STEPS_MS) if (step >= floor && bucketCount(from, to, step) <= MAX_HISTORY_POINTS) return step;
  const days = Math.ceil((to - from) / MAX_HISTORY_POINTS / 86_400_000);
  return days * 86_400_000;
}

/** How many buckets of `step` ms (aligned to the epoch) the range `[from, to]` touches. */
export function bucketCount(from: number, to: number, step: number): number {
  return Math.floor(to / step) - Math.floor(from / step) + 1;
}
