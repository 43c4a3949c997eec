import { describe, expect, it } from 'vitest';
import { loadNodeManagerConfig } from '../config.js';
import {
  anyWatched,
  DEFAULT_SYSTEM_MONITOR_THRESHOLDS,
  parseSystemMonitorSettings,
  systemMonitorThresholdsFor,
} from './system-monitor-settings.js';

describe('system monitor settings', () => {
  it('keeps the defaults when empty and switches everything off with off', () => {
    expect(systemMonitorThresholdsFor(parseSystemMonitorSettings(''))).toEqual(DEFAULT_SYSTEM_MONITOR_THRESHOLDS);
    const off = systemMonitorThresholdsFor(parseSystemMonitorSettings('off'));
    expect(anyWatched(off)).toBe(false);
    expect(anyWatched(DEFAULT_SYSTEM_MONITOR_THRESHOLDS)).toBe(true);
  });

  it('reads defaults and node family overrides', () => {
    const settings = parseSystemMonitorSettings('long_gc=200,large_heap@billing=1024,busy_port@billing=off');
    expect(systemMonitorThresholdsFor(settings)).toEqual({ ...DEFAULT_SYSTEM_MONITOR_THRESHOLDS, long_gc: 200 });
    expect(systemMonitorThresholdsFor(settings, 'billing')).toEqual({
      ...DEFAULT_SYSTEM_MONITOR_THRESHOLDS,
      long_gc: 200,
      large_heap: 1024,
      busy_port: false,
    });
    expect(systemMonitorThresholdsFor(settings, 'web').large_heap).toBe(256);
  });

  it('refuses values that do not fit their kind, naming each entry', () => {
    expect(() => parseSystemMonitorSettings('busy_port=5,long_gc=on,large_heap=0,long_schedule=3600001')).toThrow(
      'systemMonitorAlarms: busy_port=5: busy_port takes on or off; ' +
        'long_gc=on: long_gc takes a number (milliseconds) or off; ' +
        'large_heap=0: large_heap takes 1 to 1048576 megabytes; ' +
        'long_schedule=3600001: long_schedule takes 1 to 3600000 milliseconds',
    );
    expect(() => parseSystemMonitorSettings('cpu=5')).toThrow(/cpu=5: not <kind>/);
  });

  it('is a config setting whose schema refuses unknown kinds', () => {
    expect(loadNodeManagerConfig({ TRIAD_SYSTEM_MONITOR_ALARMS: 'long_gc@a b=50' }).systemMonitorAlarms).toBe(
      'long_gc@a b=50',
    );
    expect(loadNodeManagerConfig({ TRIAD_SYSTEM_MONITOR_ALARMS: 'off' }).systemMonitorAlarms).toBe('off');
    expect(() => loadNodeManagerConfig({ TRIAD_SYSTEM_MONITOR_ALARMS: 'cpu=5' })).toThrow(/systemMonitorAlarms/);
  });
});
