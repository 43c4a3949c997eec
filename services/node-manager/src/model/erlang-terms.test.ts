import { describe, expect, it } from 'vitest';
import { alarmSourceText, erlangAtom, eventIdOf, eventTimeOf, parseEventId } from './erlang-terms.js';

describe('Erlang term text', () => {
  it('prints the documented alarm source with the 17-space continuation line', () => {
    expect(alarmSourceText('3fa56f92-3195-401b-93a8-7bc43e54d66f', 'wo_test_1@127.0.0.1', 'node_level', 'wombat')).toBe(
      '{wo_alarm_source,"3fa56f92-3195-401b-93a8-7bc43e54d66f",\'wo_test_1@127.0.0.1\',\n' +
        '                 node_level,wombat}',
    );
  });

  it('keeps a short source on one line', () => {
    expect(alarmSourceText('n1', 'a@b', 'node_level', 'wombat')).toBe('{wo_alarm_source,"n1",a@b,node_level,wombat}');
  });

  it('quotes atoms that are not plain', () => {
    expect(erlangAtom('node_level')).toBe('node_level');
    expect(erlangAtom('Upper')).toBe("'Upper'");
    expect(erlangAtom('end')).toBe("'end'");
    expect(erlangAtom("it's")).toBe("'it\\'s'");
  });

  it('renders the documented eventId and eventTime of one instant', () => {
    const us = 1406_873289_745642;
    expect(eventIdOf(us)).toBe('{1406,873289,745642}');
    expect(eventTimeOf(us)).toBe(1406873289000);
    expect(parseEventId('{1406,873289,745642}')).toBe(us);
  });

  it('refuses event ids that are not {Mega,Sec,Micro}', () => {
    for (const bad of ['1406,873289,745642', '{1,2}', '{1,2,3,4}', '{a,b,c}', '{1,1000000,0}', '{1, 2,3}'])
      expect(parseEventId(bad)).toBeUndefined();
  });
});
