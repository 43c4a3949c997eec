import { atom, binary, int, list, map, NIL, pid, string, tuple } from '@triad/erlang-dist';
import { describe, expect, it } from 'vitest';
import { erlangTermText } from './erlang-term-text.js';

describe('erlangTermText', () => {
  it.each([
    ['a plain atom bare', atom('my_alarm'), 'my_alarm'],
    ['an atom with @ and dots quoted', atom('a@127.0.0.1'), "'a@127.0.0.1'"],
    ['a charlist as a string', string('detail'), '"detail"'],
    ['a string with a quote escaped', string('say "hi"'), '"say \\"hi\\""'],
    ['the empty list', NIL, '[]'],
    ['a list of non-printable integers as numbers', string('\u0001\u0002'), '[1,2]'],
    ['a list of printable integers as a string', list([int(104), int(105)]), '"hi"'],
    ['an improper list with a bar', list([atom('a')], atom('b')), '[a|b]'],
    ['a tuple without spaces', tuple(atom('disk_almost_full'), string('/')), '{disk_almost_full,"/"}'],
    ['a printable binary', binary('High memory'), '<<"High memory">>'],
    ['a non-printable binary as bytes', binary(new Uint8Array([0, 255])), '<<0,255>>'],
    ['a map with arrows', map([[atom('k'), int(1)]]), '#{k => 1}'],
  ])('prints %s', (_what, term, text) => {
    expect(erlangTermText(term)).toBe(text);
  });

  it('prints pids of the node itself with node index 0 and others with their node name', () => {
    expect(erlangTermText(pid('n@h', 85, 0, 1), { localNode: 'n@h' })).toBe('<0.85.0>');
    expect(erlangTermText(pid('m@h', 85, 0, 1), { localNode: 'n@h' })).toBe('<m@h.85.0>');
  });
});
