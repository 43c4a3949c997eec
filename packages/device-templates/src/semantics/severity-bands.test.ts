import { describe, expect, it } from 'vitest';
import { describeEvaluation, severityBand } from './severity-bands.js';

describe('severityBand', () => {
  it.each([
    [1, 'log/notification'],
    [200, 'log/notification'],
    [201, 'info'],
    [401, 'warning'],
    [600, 'warning'],
    [601, 'error'],
    [1000, 'critical'],
  ])('puts %i in the %s band', (severity, band) => {
    expect(severityBand(severity)).toBe(band);
  });

  it.each([0, -1, 1001, 2.5, '601'])('has no band for %p', (severity) => {
    expect(severityBand(severity)).toBeUndefined();
  });

  it('names an evaluation by severity, or by index when the severity is unusable', () => {
    expect(describeEvaluation({ severity: 801 }, 0)).toBe('the evaluation with severity 801 (critical)');
    expect(describeEvaluation({ severity: 'high' }, 3)).toBe('evaluation 3');
  });
});
