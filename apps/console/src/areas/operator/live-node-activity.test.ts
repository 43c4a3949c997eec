import { describe, expect, it } from 'vitest';
import { addLogEntry, applyAlarmFrame } from './live-node-activity.js';
import type { AlarmWire, NodeLogWire } from './node-wire.js';

function alarm(eventId: string, eventTime: number, state = 'new'): AlarmWire {
  return {
    alarmId: `alarm_${eventId}`,
    src: { nodeId: 'n1', nodeName: 'a@h', custom: 'node_level' },
    eventTime,
    eventId,
    severity: 'major',
    state,
    additionalInformation: '',
    comments: [],
    rawSrc: 'src',
  };
}

describe('applyAlarmFrame', () => {
  const list = [alarm('c', 300), alarm('a', 100)];
  it('inserts a raised alarm at its place, newest first', () => {
    expect(applyAlarmFrame(list, 'raised', alarm('b', 200)).map((a) => a.eventId)).toEqual(['c', 'b', 'a']);
    expect(applyAlarmFrame(list, 'raised', alarm('d', 400)).map((a) => a.eventId)).toEqual(['d', 'c', 'a']);
    expect(applyAlarmFrame(list, 'raised', alarm('z', 50)).map((a) => a.eventId)).toEqual(['c', 'a', 'z']);
  });
  it('replaces a listed alarm in place on any other action', () => {
    const next = applyAlarmFrame(list, 'acknowledged', alarm('a', 100, 'acknowledged'));
    expect(next.map((a) => [a.eventId, a.state])).toEqual([
      ['c', 'new'],
      ['a', 'acknowledged'],
    ]);
  });
  it('removes a cleared alarm, and ignores one it never listed', () => {
    expect(applyAlarmFrame(list, 'cleared', alarm('c', 300)).map((a) => a.eventId)).toEqual(['a']);
    expect(applyAlarmFrame(list, 'cleared', alarm('x', 300))).toEqual(list);
  });
});

describe('addLogEntry', () => {
  const log = (time: number, text: string): NodeLogWire => ({ time, level: 'error', kind: 'logger_event', text });
  it('puts a new entry first and keeps at most limit entries', () => {
    const list = [log(20, 'b'), log(10, 'a')];
    expect(addLogEntry(list, log(30, 'c'), 2).map((l) => l.text)).toEqual(['c', 'b']);
    expect(addLogEntry(list, log(15, 'x'), 5).map((l) => l.text)).toEqual(['b', 'x', 'a']);
    expect(addLogEntry([], log(1, 'only'), 5).map((l) => l.text)).toEqual(['only']);
  });
});
