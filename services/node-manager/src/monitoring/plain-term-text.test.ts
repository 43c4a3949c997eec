import { atom, binary, list, NIL, pid, string, tuple, type Term } from '@triad/erlang-dist';
import { describe, expect, it } from 'vitest';
import { plainTermText } from './plain-term-text.js';

describe('plainTermText', () => {
  const cases: [string, Term, string][] = [
    ['a binary of UTF-8 text as the text', binary(Buffer.from('Speicher knapp: 95 %', 'utf8')), 'Speicher knapp: 95 %'],
    ['a charlist as the text', string('High total memory usage'), 'High total memory usage'],
    ['no description ([]) as nothing', NIL, ''],
    ['an atom as its name', atom('disk_almost_full'), 'disk_almost_full'],
    ['a tuple as its parts with spaces', tuple(atom('disk_almost_full'), string('/data')), 'disk_almost_full /data'],
    ['a list of terms with commas', list([atom('a'), { type: 'integer', value: 3 }]), 'a, 3'],
    ['a pid as the shell shows it', pid('n@h', 85, 0, 3), '<0.85.0>'],
    ['a binary that is not text by its size', binary(Uint8Array.of(0, 159, 146)), '3 bytes'],
  ];
  it.each(cases)('reads %s', (_, term, text) => {
    expect(plainTermText(term, { localNode: 'n@h' })).toBe(text);
  });

  it('never prints Erlang term syntax for text', () => {
    const text = plainTermText(tuple(binary(Buffer.from('x "quoted"')), string('y')));
    expect(text).toBe('x "quoted" y');
    expect(text).not.toMatch(/<<|>>|\{|\}/);
  });
});
