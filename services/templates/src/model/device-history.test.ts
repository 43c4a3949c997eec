import { describe, expect, it } from 'vitest';
import { MAX_HISTORY_POINTS, planHistoryQuery } from './device-history.js';

const NOW = Date.UTC(2026, 11, 3, 12, 0, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const base = { now: NOW, rawRetentionMs: DAY };

describe('planHistoryQuery', () => {
  it('reads raw points for a range starting within the raw retention and no step', () => {
    expect(planHistoryQuery({ ...base, from: NOW - HOUR, to: NOW })).toEqual({ source: 'raw', step: 0 });
  });

  it('reads minute rows in the shortest nice step fitting the point limit for an older range', () => {
    // 30 days / 2,000 points = 21.6 min: 30 min buckets (1,441 of them).
    // Over a week: whole hours, read from the hour rows.
    expect(planHistoryQuery({ ...base, from: NOW - 30 * DAY, to: NOW })).toEqual({ source: 'minute', step: 3_600_000 });
    expect(planHistoryQuery({ ...base, from: NOW - 7 * DAY, to: NOW })).toEqual({ source: 'minute', step: 600_000 });
    expect(planHistoryQuery({ ...base, from: NOW - 2 * DAY, to: NOW - 1.5 * DAY })).toEqual({
      source: 'minute',
      step: 60_000,
    });
  });

  it('rounds a step over minute rows up to whole minutes and keeps a raw step as given', () => {
    expect(planHistoryQuery({ ...base, from: NOW - 7 * DAY, to: NOW, step: 3_700_000 })).toEqual({
      source: 'minute',
      step: 3_720_000,
    });
    expect(planHistoryQuery({ ...base, from: NOW - HOUR, to: NOW, step: 5000 })).toEqual({ source: 'raw', step: 5000 });
  });

  it('refuses a step giving more buckets than the limit, naming the least step that fits', () => {
    const plan = planHistoryQuery({ ...base, from: NOW - HOUR, to: NOW, step: 1000 });
    expect(plan).toEqual({
      problem:
        `step 1000 ms gives more than ${MAX_HISTORY_POINTS} buckets over this range: ` +
        'give a step of at least 2000 ms, or none to have one chosen',
    });
  });

  it('refuses from after to, and a range over 400 days', () => {
    expect(planHistoryQuery({ ...base, from: NOW, to: NOW - 1 })).toHaveProperty('problem');
    expect(planHistoryQuery({ ...base, from: NOW - 401 * DAY, to: NOW })).toHaveProperty('problem');
  });
});
