import { atom, list, NIL, pid, string, tuple } from '@triad/erlang-dist';
import { describe, expect, it } from 'vitest';
import { parseSaslAlarms } from './sasl-alarm-collector.js';

describe('parseSaslAlarms', () => {
  it('names atom ids by the atom and other ids as Erlang prints them, with the description in plain words', () => {
    const reply = list([
      tuple(atom('my_alarm'), string('detail')),
      tuple(tuple(atom('disk_almost_full'), string('/')), NIL),
      tuple(atom('process_memory_high_watermark'), pid('n@h', 85, 0, 3)),
      tuple(atom('my_alarm'), string('second of the same id')),
    ]);
    expect(parseSaslAlarms(reply, 'n@h')).toEqual([
      { alarmId: 'my_alarm', additionalInformation: 'detail' },
      { alarmId: '{disk_almost_full,"/"}', additionalInformation: '' },
      { alarmId: 'process_memory_high_watermark', additionalInformation: '<0.85.0>' },
    ]);
  });

  it('reads a node without SASL (noproc) as having no alarms and rejects other failures', () => {
    const noproc = tuple(
      atom('badrpc'),
      tuple(atom('EXIT'), tuple(atom('noproc'), tuple(atom('gen_event'), atom('call'), NIL))),
    );
    expect(parseSaslAlarms(noproc, 'n@h')).toEqual([]);
    expect(() => parseSaslAlarms(tuple(atom('badrpc'), atom('nodedown')), 'n@h')).toThrow(/nodedown/);
    expect(() => parseSaslAlarms(atom('ok'), 'n@h')).toThrow(/gave ok/);
  });
});
