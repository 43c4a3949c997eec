import { describe, expect, it } from 'vitest';
import { loadNodeManagerConfig } from '../config.js';
import { DEFAULT_LIMIT_THRESHOLDS, nextLevel, parseLimitThresholds, thresholdFor } from './limit-thresholds.js';

describe('limit thresholds', () => {
  const percent = DEFAULT_LIMIT_THRESHOLDS.process_limit;
  const queue = DEFAULT_LIMIT_THRESHOLDS.process_message_queue;

  it('raises minor at 70 % and keeps it down to 65 %, clearing below', () => {
    expect(nextLevel('process_limit', percent, undefined, 69.9)).toBeUndefined();
    expect(nextLevel('process_limit', percent, undefined, 70)).toBe('minor');
    expect(nextLevel('process_limit', percent, 'minor', 65)).toBe('minor');
    expect(nextLevel('process_limit', percent, 'minor', 64.9)).toBeUndefined();
  });

  it('raises major at 85 %, keeps it down to 80 %, then falls back to minor', () => {
    expect(nextLevel('port_limit', percent, 'minor', 85)).toBe('major');
    expect(nextLevel('port_limit', percent, 'major', 80)).toBe('major');
    expect(nextLevel('port_limit', percent, 'major', 79)).toBe('minor');
    expect(nextLevel('port_limit', percent, 'major', 60)).toBeUndefined();
  });

  it('clears message queue alarms at 80 % of their raise levels', () => {
    expect(nextLevel('process_message_queue', queue, undefined, 4_999)).toBeUndefined();
    expect(nextLevel('process_message_queue', queue, 'minor', 4_000)).toBe('minor');
    expect(nextLevel('process_message_queue', queue, 'minor', 3_999)).toBeUndefined();
    expect(nextLevel('process_message_queue', queue, 'major', 16_000)).toBe('major');
    expect(nextLevel('process_message_queue', queue, 'major', 15_999)).toBe('minor');
  });

  it('reads defaults and node family overrides from the setting', () => {
    const settings = parseLimitThresholds('process_limit=60/80,process_message_queue@billing=100/500');
    expect(thresholdFor(settings, 'process_limit')).toEqual({ minor: 60, major: 80 });
    expect(thresholdFor(settings, 'process_limit', 'billing')).toEqual({ minor: 60, major: 80 });
    expect(thresholdFor(settings, 'process_message_queue', 'billing')).toEqual({ minor: 100, major: 500 });
    expect(thresholdFor(settings, 'process_message_queue', 'web')).toEqual(queue);
    expect(thresholdFor(parseLimitThresholds(''), 'atom_limit')).toEqual({ minor: 70, major: 85 });
  });

  it('refuses a minor level not below the major one and percentages above 100, naming each entry', () => {
    expect(() => parseLimitThresholds('port_limit=90/80,ets_limit=50/101')).toThrow(
      'limitAlarmThresholds: port_limit=90/80: the minor level must be below the major level; ' +
        'ets_limit=50/101: a percentage above 100',
    );
  });

  it('is a config setting whose schema refuses unknown families', () => {
    expect(loadNodeManagerConfig({ TRIAD_LIMIT_ALARM_THRESHOLDS: 'ets_limit@a b=1/2' }).limitAlarmThresholds).toBe(
      'ets_limit@a b=1/2',
    );
    expect(() => loadNodeManagerConfig({ TRIAD_LIMIT_ALARM_THRESHOLDS: 'cpu_limit=1/2' })).toThrow(
      /limitAlarmThresholds/,
    );
  });
});
