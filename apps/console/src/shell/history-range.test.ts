import { describe, expect, it } from 'vitest';
import { HISTORY_RANGES, rangeBounds } from './history-range.js';

const NOW = 1_764_133_200_000;

describe('rangeBounds', () => {
  it('ends every range at now and starts it the range length before', () => {
    expect(HISTORY_RANGES.map((r) => ({ label: r.label, ...rangeBounds(r, NOW) }))).toEqual([
      { label: '1 h', from: NOW - 3_600_000, to: NOW },
      { label: '24 h', from: NOW - 86_400_000, to: NOW },
      { label: '7 d', from: NOW - 604_800_000, to: NOW },
      { label: '30 d', from: NOW - 2_592_000_000, to: NOW },
    ]);
  });
});
