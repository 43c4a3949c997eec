import { thrownBy } from '@triad/common';
import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder } from './frame-decoder.js';
import { atom, int, list, string, tuple, type FunTerm, type Term } from './term.js';
import { decodeTerm } from './term-decoder.js';
import { encodeTerm } from './term-encoder.js';
import { fromHex, toHex } from './test-support/hex.js';
import { termFixtures } from './test-support/term-fixtures.generated.js';

const withTerm = termFixtures.filter((f) => f.term !== null);
const canonical = termFixtures.filter((f) => f.canonical);

describe('external term format fixtures captured from erl', () => {
  it('has a fixture for every tag family the reference lists', () => {
    const tags = new Set(termFixtures.map((f) => fromHex(f.hex)[1]));
    for (const tag of [
      70, 77, 80, 88, 89, 90, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114,
      115, 116, 118, 119,
    ]) {
      expect(tags, `tag ${tag}`).toContain(tag);
    }
  });

  it.each(withTerm.map((f) => [f.name, f] as const))('decodes %s to the term written beside it', (_name, f) => {
    expect(decodeTerm(fromHex(f.hex))).toEqual(f.term);
  });

  it.each(canonical.filter((f) => f.term !== null).map((f) => [f.name, f] as const))(
    'encodes the term of %s to the bytes erl wrote',
    (_name, f) => {
      expect(toHex(encodeTerm(f.term!))).toBe(f.hex);
    },
  );

  it.each(canonical.map((f) => [f.name, f] as const))('round-trips %s byte for byte', (_name, f) => {
    expect(toHex(encodeTerm(decodeTerm(fromHex(f.hex))))).toBe(f.hex);
  });

  it.each(termFixtures.filter((f) => !f.canonical).map((f) => [f.name, f] as const))(
    're-encodes the legacy or compressed %s to bytes that decode to the same term',
    (_name, f) => {
      const term = decodeTerm(fromHex(f.hex));
      expect(decodeTerm(encodeTerm(term))).toEqual(term);
    },
  );

  it.each(termFixtures.map((f) => [f.name, f] as const))(
    'decodes %s identically when its frame arrives split at every offset',
    (_name, f) => {
      const framed = encodeFrame(fromHex(f.hex), 4);
      const expected = decodeTerm(fromHex(f.hex));
      for (let cut = 0; cut <= framed.length; cut++) {
        const decoder = new FrameDecoder({ headerBytes: 4 });
        decoder.push(framed.subarray(0, cut));
        const early = decoder.pull();
        decoder.push(framed.subarray(cut));
        const frame = early ?? decoder.pull();
        expect(frame?.type, `cut ${cut}`).toBe('data');
        if (frame?.type === 'data') expect(decodeTerm(frame.payload)).toEqual(expected);
        expect(decoder.bufferedBytes).toBe(0);
      }
    },
  );
});

describe('fun fixtures', () => {
  it('decodes an erl_eval fun with its module, arity, owner pid and free variables', () => {
    const f = termFixtures.find((x) => x.name === 'fun_identity')!;
    const fun = decodeTerm(fromHex(f.hex)) as FunTerm;
    expect(fun.type).toBe('fun');
    expect(fun.module).toBe('erl_eval');
    expect(fun.arity).toBe(1);
    expect(fun.uniq).toHaveLength(16);
    expect(fun.pid.type).toBe('pid');
    expect(fun.pid.node).toBe('nonode@nohost');
    expect(fun.freeVars.length).toBeGreaterThan(0);
  });

  it('keeps the bound variable of a closure among the free variables', () => {
    const f = termFixtures.find((x) => x.name === 'fun_with_free_var')!;
    const fun = decodeTerm(fromHex(f.hex)) as FunTerm;
    expect(fun.arity).toBe(0);
    // erl_eval keeps the bindings as [{'Y', 7}] in its environment.
    expect(JSON.stringify(fun.freeVars, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).toContain(
      '"name":"Y"',
    );
  });
});

describe('encoder choices', () => {
  it('writes a long list of bytes as LIST_EXT once it no longer fits STRING_EXT', () => {
    const bytes = encodeTerm(list(Array.from({ length: 70_000 }, () => int(97))));
    expect(bytes[1]).toBe(108);
    expect(decodeTerm(bytes)).toEqual(list(Array.from({ length: 70_000 }, () => int(97))));
  });

  it('writes a string beyond Latin-1 as a list of code points, as Erlang holds it', () => {
    expect(decodeTerm(encodeTerm(string('h\u65e5')))).toEqual(list([int(104), int(0x65e5)]));
    expect(decodeTerm(encodeTerm(string('')))).toEqual({ type: 'nil' });
  });

  it('writes bigints inside the 32-bit range as INTEGER_EXT and decodes large ones as bigint', () => {
    expect(toHex(encodeTerm(int(-5n)))).toBe('8362fffffffb');
    expect(decodeTerm(encodeTerm(int(-(2n ** 70n))))).toEqual(int(-(2n ** 70n)));
  });

  it('round-trips a V4 port id above 32 bits', () => {
    const p: Term = { type: 'port', node: 'a@b', id: 2n ** 40n + 1n, creation: 7 };
    const bytes = encodeTerm(p);
    expect(bytes[1]).toBe(120);
    expect(decodeTerm(bytes)).toEqual({ ...p, id: 2 ** 40 + 1 });
  });

  it.each<[string, Term]>([
    ['a fractional integer', int(1.5)],
    ['an infinite float', { type: 'float', value: Infinity }],
    ['a bit binary with 0 bits', { type: 'bitBinary', bytes: Uint8Array.of(1), bits: 0 }],
    ['a pid with a negative id', { type: 'pid', node: 'a@b', id: -1, serial: 0, creation: 1 }],
    ['a reference without ids', { type: 'reference', node: 'a@b', creation: 1, ids: [] }],
    ['an unknown term type', { type: 'weird' } as unknown as Term],
  ])('refuses %s with ED_ERR_UNENCODABLE', (_name, term) => {
    expect(thrownBy(() => encodeTerm(tuple(atom('x'), term)))).toMatchObject({ code: 'ED_ERR_UNENCODABLE' });
  });
});
