import { deflateSync } from 'node:zlib';
import { seededRandom, thrownBy } from '@triad/common';
import { describe, expect, it } from 'vitest';
import { decodeDistPayload, parseControlMessage } from './control-message.js';
import { decodeNamesResponse, decodePort2Response } from './epmd.js';
import { ErlangDistError } from './errors.js';
import { FrameDecoder } from './frame-decoder.js';
import { decodeChallenge, decodeChallengeAck, decodeStatus } from './handshake-messages.js';
import { decodeTerm } from './term-decoder.js';
import { fromHex } from './test-support/hex.js';
import { termFixtures } from './test-support/term-fixtures.generated.js';

const rng = seededRandom;

/** Runs `fn`; anything thrown that is not an ErlangDistError fails the test with the input. */
function onlyOwnErrors(input: Uint8Array, fn: (b: Uint8Array) => unknown): void {
  try {
    fn(input);
  } catch (error) {
    if (!(error instanceof ErlangDistError)) {
      throw new Error(`non-ErlangDistError ${String(error)} for input ${Buffer.from(input).toString('hex')}`);
    }
  }
}

const decoders: [string, (b: Uint8Array) => unknown][] = [
  ['decodeTerm', (b) => decodeTerm(b)],
  ['pass-through', (b) => parseControlMessage(decodeDistPayload(b))],
  ['PORT2_RESP', decodePort2Response],
  ['NAMES', decodeNamesResponse],
  ['challenge', decodeChallenge],
  ['challenge_ack', decodeChallengeAck],
  ['status', decodeStatus],
  [
    'frames',
    (b) => {
      const d = new FrameDecoder({ headerBytes: 4, maxFrameBytes: 1024 });
      d.push(b);
      for (let f = d.pull(); f; f = d.pull()) if (f.type === 'data') decodeDistPayload(f.payload);
    },
  ],
];

describe('fuzz: decoders throw only ErlangDistError', () => {
  it.each(decoders)('%s survives 4000 seeded random inputs', (_name, decode) => {
    const next = rng(0x5eed);
    const interesting = [131, 112, 104, 105, 106, 107, 108, 109, 110, 111, 116, 119, 118, 88, 90, 80, 77, 0, 255];
    for (let i = 0; i < 4000; i++) {
      const n = Math.floor(next() * 48);
      const bytes = new Uint8Array(n);
      // Half of the bytes from the tag alphabet, so that inputs get past the first switch.
      for (let j = 0; j < n; j++)
        bytes[j] = next() < 0.5 ? interesting[Math.floor(next() * interesting.length)]! : Math.floor(next() * 256);
      if (n > 0 && next() < 0.7) bytes[0] = i % 2 ? 131 : 112;
      onlyOwnErrors(bytes, decode);
    }
  });

  it('decodeTerm and the pass-through decoder survive 60 mutations of every fixture', () => {
    const next = rng(42);
    let typed = 0;
    for (const f of termFixtures) {
      const original = fromHex(f.hex);
      for (let i = 0; i < 60; i++) {
        const bytes = Uint8Array.from(original);
        const kind = i % 4;
        if (kind === 0) bytes[1 + Math.floor(next() * (bytes.length - 1))] = Math.floor(next() * 256);
        if (kind === 1) {
          const at = 1 + Math.floor(next() * (bytes.length - 1));
          bytes[at] = bytes[at]! ^ (1 << Math.floor(next() * 8));
        }
        const input =
          kind === 2
            ? bytes.subarray(0, Math.floor(next() * bytes.length))
            : kind === 3
              ? new Uint8Array([...bytes.subarray(0, 2), 0xff, 0xff, ...bytes.subarray(2)])
              : bytes;
        onlyOwnErrors(input, (b) => decodeTerm(b));
        onlyOwnErrors(new Uint8Array([112, ...input, ...input]), (b) => parseControlMessage(decodeDistPayload(b)));
        try {
          decodeTerm(input);
        } catch {
          typed++;
        }
      }
    }
    expect(typed).toBeGreaterThan(termFixtures.length); // the mutations do reach the error paths
  });
});

const expectCode = (bytes: Uint8Array, code: string, offset?: number) =>
  expect(thrownBy(() => decodeTerm(bytes, { maxDepth: 100 }))).toMatchObject(
    offset === undefined ? { code } : { code, offset },
  );

describe('bounds', () => {
  it.each([
    ['LIST_EXT', '83 6c ffffffff 6a'],
    ['LARGE_TUPLE_EXT', '83 69 ffffffff 61 01'],
    ['MAP_EXT', '83 74 7fffffff 61 01 61 02'],
    ['BINARY_EXT', '83 6d ffffffff 00'],
    ['BIT_BINARY_EXT', '83 4d ffffffff 08 00'],
    ['LARGE_BIG_EXT', '83 6f ffffffff 00 01'],
    ['NEWER_REFERENCE_EXT', '83 5a ffff 77 01 61 00000001 00000001'],
    ['NEW_FUN_EXT', '83 70 ffffffff 00'],
  ])('refuses a huge declared %s length without allocating it', (_name, hex) => {
    expectCode(fromHex(hex), 'ED_ERR_LENGTH_EXCEEDS_INPUT', 1);
  });

  it('reports truncation with the offset of the missing field', () => {
    expectCode(fromHex('83 68 02 61 01'), 'ED_ERR_TRUNCATED', 5);
    expectCode(fromHex('83 62 00 00'), 'ED_ERR_TRUNCATED', 2);
  });

  it('stops deep tuple nesting at the depth cap instead of overflowing the stack', () => {
    const bytes = new Uint8Array([
      131,
      ...new Array<number>(200_000).fill(0).flatMap((_, i) => (i % 2 ? [1] : [104])),
      106,
    ]);
    expect(thrownBy(() => decodeTerm(bytes))).toMatchObject({ code: 'ED_ERR_DEPTH_EXCEEDED' });
  });

  it('stops deep list-tail chains at the depth cap', () => {
    const chain = Array.from({ length: 2000 }, () => [108, 0, 0, 0, 1, 97, 1]).flat();
    expectCode(new Uint8Array([131, ...chain, 106]), 'ED_ERR_DEPTH_EXCEEDED');
    expect(() => decodeTerm(new Uint8Array([131, ...chain.slice(0, 7 * 50), 106]), { maxDepth: 100 })).not.toThrow();
  });

  it('refuses compressed terms that declare too much, lie about their size or are not zlib', () => {
    expectCode(fromHex('83 50 ffffffff 00'), 'ED_ERR_COMPRESSED', 1);
    const body = deflateSync(new Uint8Array([106]));
    expectCode(new Uint8Array([131, 80, 0, 0, 0, 5, ...body]), 'ED_ERR_COMPRESSED');
    expectCode(fromHex('83 50 00000001 0102030405'), 'ED_ERR_COMPRESSED');
    const bomb = deflateSync(new Uint8Array(1_000_000));
    expectCode(new Uint8Array([131, 80, 0, 0, 0, 10, ...bomb]), 'ED_ERR_COMPRESSED');
  });

  it('reports errors inside compressed data with their inflated offset', () => {
    const body = deflateSync(Uint8Array.of(104, 1, 98, 0));
    expect(thrownBy(() => decodeTerm(new Uint8Array([131, 80, 0, 0, 0, 4, ...body])))).toMatchObject({
      code: 'ED_ERR_TRUNCATED',
      details: { inflatedOffset: 3 },
    });
  });

  it.each([
    ['a missing version byte', '68 00', 'ED_ERR_BAD_VERSION', 0],
    ['an unknown tag', '83 01', 'ED_ERR_UNKNOWN_TAG', 1],
    ['LOCAL_EXT', '83 79 00', 'ED_ERR_UNKNOWN_TAG', 1],
    ['an atom cache reference', '83 52 00', 'ED_ERR_ATOM_CACHE_REF', 1],
    ['invalid UTF-8 in an atom', '83 77 02 c3 28', 'ED_ERR_BAD_ATOM', 1],
    ['bytes after the term', '83 6a 00', 'ED_ERR_TRAILING_BYTES', 2],
    ['a bit binary with 9 bits', '83 4d 00000001 09 ff', 'ED_ERR_MALFORMED', 1],
    ['a pid whose node is not an atom', '83 58 61 01 00000000 00000000 00000000', 'ED_ERR_MALFORMED', 2],
    ['an unparsable string float', '83 63' + '78'.repeat(31), 'ED_ERR_MALFORMED', 1],
  ])('refuses %s with a typed error and offset', (_name, hex, code, offset) => {
    expectCode(fromHex(hex), code, offset);
  });
});
