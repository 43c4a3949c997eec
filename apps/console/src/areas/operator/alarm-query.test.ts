import { describe, expect, it } from 'vitest';
import { alarmPageUrl, alarmViewPath, parseAlarmView } from './alarm-query.js';

describe('alarmPageUrl', () => {
  it('asks the first page of every alarm with tags=all', () => {
    expect(alarmPageUrl({ source: undefined, tag: undefined, limit: 50 }, undefined)).toBe(
      '/api/alarm?limit=50&tags=all',
    );
  });
  it('pages back by event id with the source and tag filters', () => {
    expect(alarmPageUrl({ source: 'disk space', tag: 'op', limit: 20 }, '{1700,1,2}')).toBe(
      '/api/alarm/previous/all?eid=%7B1700%2C1%2C2%7D&limit=20&tags=op&source=disk+space',
    );
  });
});

describe('parseAlarmView and alarmViewPath', () => {
  it('round-trips a filtered view through the console address', () => {
    const view = { source: 'disk space', tag: 'op', limit: 1000, severity: 'major' };
    expect(alarmViewPath(view)).toBe('/alarms?source=disk+space&tag=op&rows=1000&severity=major');
    expect(parseAlarmView('?source=disk+space&tag=op&rows=1000&severity=major')).toEqual(view);
  });
  it('reads missing, empty and unknown values as the defaults', () => {
    expect(parseAlarmView('')).toEqual({ source: undefined, tag: undefined, limit: 50, severity: undefined });
    expect(parseAlarmView('?source=&rows=7')).toEqual({
      source: undefined,
      tag: undefined,
      limit: 50,
      severity: undefined,
    });
    expect(alarmViewPath({ source: undefined, tag: undefined, limit: 50 })).toBe('/alarms');
  });
});
