import { atom, binary, int, list, string, tuple } from '@triad/erlang-dist';
import { describe, expect, it } from 'vitest';
import { releaseFromScriptId } from './script-id.js';

describe('releaseFromScriptId', () => {
  it('reads the {Name, Vsn} charlists a plain erl boot script answers', () => {
    expect(releaseFromScriptId(tuple(string('Erlang/OTP'), string('25')))).toEqual({
      name: 'Erlang/OTP',
      version: '25',
    });
    expect(releaseFromScriptId(tuple(string('OTP  APN 181 01'), string('R16B03-1')))).toEqual({
      name: 'OTP  APN 181 01',
      version: 'R16B03-1',
    });
  });

  it('reads charlists above Latin-1 (lists of integers) and UTF-8 binaries', () => {
    const unicode = list([int(0x41), int(0x3b1), int(0x1f600)]);
    expect(releaseFromScriptId(tuple(unicode, binary('1.0.0')))).toEqual({
      name: 'A\u03b1\u{1f600}',
      version: '1.0.0',
    });
  });

  it('gives undefined for badrpc, atoms, other shapes, empty or overlong parts and non-character lists', () => {
    expect(releaseFromScriptId(tuple(atom('badrpc'), tuple(atom('EXIT'), atom('timeout'))))).toBeUndefined();
    expect(releaseFromScriptId(tuple(atom('badrpc'), atom('nodedown')))).toBeUndefined();
    expect(releaseFromScriptId(tuple(string('a'), string('b'), string('c')))).toBeUndefined();
    expect(releaseFromScriptId(string('Erlang/OTP 25'))).toBeUndefined();
    expect(releaseFromScriptId(tuple(string(''), string('25')))).toBeUndefined();
    expect(releaseFromScriptId(tuple(string('x'.repeat(128)), string('25')))).toBeUndefined();
    expect(releaseFromScriptId(tuple(list([int(-1)]), string('25')))).toBeUndefined();
    expect(releaseFromScriptId(tuple(binary(Uint8Array.of(0xff, 0xfe)), string('25')))).toBeUndefined();
    expect(releaseFromScriptId(tuple(int(1), string('25')))).toBeUndefined();
  });
});
