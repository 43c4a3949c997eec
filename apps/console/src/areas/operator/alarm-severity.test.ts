import { describe, expect, it } from 'vitest';
import { SEVERITIES, severityRank } from './alarm-severity.js';

describe('severityRank', () => {
  it('ranks the X.733 severities from critical to cleared, unknown words after them', () => {
    expect(SEVERITIES.map(severityRank)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(severityRank('something else')).toBe(SEVERITIES.length);
    expect(['minor', 'critical', 'cleared', 'odd', 'major'].sort((a, b) => severityRank(a) - severityRank(b))).toEqual([
      'critical',
      'major',
      'minor',
      'cleared',
      'odd',
    ]);
  });
});
