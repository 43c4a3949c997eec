import { describe, expect, it } from 'vitest';
import { alignSeries, summarize } from './timed-series.js';

describe('alignSeries', () => {
  it('joins the series on their times in seconds with null where one has no point', () => {
    expect(
      alignSeries([
        [
          [2000, 2],
          [1000, 1],
        ],
        [[3000, 30]],
      ]),
    ).toEqual({
      xs: [1, 2, 3],
      ys: [
        [1, 2, null],
        [null, null, 30],
      ],
    });
  });
});

describe('summarize', () => {
  it('gives the last value and the extremes', () => {
    expect(
      summarize([
        [1, 5],
        [2, 9],
        [3, 2],
        [4, 4],
      ]),
    ).toEqual({ latest: 4, min: 2, max: 9 });
  });
  it('is undefined for no points', () => {
    expect(summarize([])).toBeUndefined();
  });
});
