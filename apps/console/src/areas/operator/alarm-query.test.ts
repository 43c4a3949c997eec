import { describe, expect, it } from 'vitest';
import { alarmPageUrl } from './alarm-query.js';

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
