import { deflateSync } from 'node:zlib';
import { seededRandom, thrownBy } from '@triad/common';
import { describe, expect, it } from 'vitest';
import { ByteWriter } from './byte-writer.js';
import { control, decodeDistPayload, encodeDistFrame, parseControlMessage } from './control-message.js';
import { ErlangDistError } from './errors.js';
import { NodeIdentity } from './node-identity.js';
import { RexCallCodec } from './rex-call-codec.js';
import { matchRexReply, rexCallMessage, type RexCall } from './rex-rpc.js';
import {
  atom,
  binary,
  float,
  int,
  list,
  map,
  NIL,
  pid,
  reference,
  string,
  tuple,
  type PidTerm,
  type ReferenceTerm,
  type Term,
} from './term.js';
import { encodeTerm, writeVersionedTerm } from './term-encoder.js';
import { toHex } from './test-support/hex.js';
import { termFixtures } from './test-support/term-fixtures.generated.js';

const identity = new NodeIdentity('wts@127.0.0.1', 0x12345678);
const caller = identity.newPid();
const codec = new RexCallCodec(caller);

/** The generic encoder's frame for the same call: what the fast path must reproduce byte for byte. */
function genericFrame(from: PidTerm, ref: ReferenceTerm, call: RexCall): Uint8Array {
  const { control: ctl, message } = rexCallMessage(from, ref, call);
  return encodeDistFrame(ctl, message);
}

/** The generic reading of a received payload: decode, parse, match `{Ref, Reply}`. */
function genericReply(
  payload: Uint8Array,
  options: { maxDepth?: number } = {},
): { ref: ReferenceTerm; reply: Term } | undefined {
  const msg = parseControlMessage(decodeDistPayload(payload, options));
  return msg.op === 'send' ? matchRexReply(msg.message) : undefined;
}

/** A SEND frame's payload (without the 4-byte length). */
function sendPayload(to: PidTerm, message: Term): Uint8Array {
  return encodeDistFrame(control.send(to), message).subarray(4);
}

const sampleArgs: readonly (readonly Term[])[] = [
  [],
  [int(0)],
  [int(-1), int(255), int(256), int(2 ** 31), int(-(2n ** 70n))],
  [atom('connected')],
  [string('hello'), string('')],
  [list([int(1), int(2), int(3)])], // a byte list: STRING_EXT inside the args list
  [int(1), int(2), int(300)], // the args list itself is not all bytes
  [int(7), int(8)], // the args list itself becomes STRING_EXT
  [tuple(atom('a'), float(1.5), binary('bin')), map([[atom('k'), NIL]])],
  [caller, reference('other@h', 3, [1, 2, 3])],
  [list([atom('x')], atom('improper'))],
  [string('ünïcödé ✓')],
];

const sampleNames: readonly [string, string][] = [
  ['erlang', 'node'],
  ['erlang', 'memory'],
  ['alarm_handler', 'get_alarms'],
  ['mödülé', 'fünctïon'],
  ['m'.repeat(255), 'f'.repeat(256)],
  ['', ''],
];

describe('RexCallCodec.encodeCall', () => {
  it('writes the same bytes as the generic encoder for many modules, functions, arguments and references', () => {
    let checked = 0;
    for (const [module, fn] of sampleNames) {
      for (const args of sampleArgs) {
        for (const ref of [identity.newReference(), identity.referenceFor(2 ** 50 - 1), identity.referenceFor(0)]) {
          const call = { module, function: fn, args };
          expect(toHex(codec.encodeCall(ref, call))).toBe(toHex(genericFrame(caller, ref, call)));
          checked++;
        }
      }
    }
    expect(checked).toBe(sampleNames.length * sampleArgs.length * 3);
  });

  it('falls back to the generic reference encoding for references of other nodes, creations or lengths', () => {
    const refs = [
      reference('other@host', caller.creation, [1, 2, 3]),
      reference(caller.node, 99, [1, 2, 3]),
      reference(caller.node, caller.creation, [1]),
      reference(caller.node, caller.creation, [1, 2, 3, 4, 5]),
    ];
    for (const ref of refs) {
      const call = { module: 'erlang', function: 'node', args: [] };
      expect(toHex(codec.encodeCall(ref, call))).toBe(toHex(genericFrame(caller, ref, call)));
    }
  });

  it('writes a given group leader like the generic encoder', () => {
    const call = { module: 'io', function: 'format', args: [string('hi~n')], groupLeader: pid('x@h', 5, 0, 9) };
    const ref = identity.newReference();
    expect(toHex(codec.encodeCall(ref, call))).toBe(toHex(genericFrame(caller, ref, call)));
  });

  it('matches the generic encoder for callers on other nodes, with unicode names and large creations', () => {
    for (const [node, creation] of [
      ['a@b', 4],
      ['ñødé@høst', 0xffff_ffff],
      ['n'.repeat(300) + '@h', 77],
    ] as const) {
      const id = new NodeIdentity(node, creation);
      const from = id.newPid();
      const own = new RexCallCodec(from);
      const ref = id.newReference();
      const call = { module: 'erlang', function: 'abs', args: [int(-5)] };
      expect(toHex(own.encodeCall(ref, call))).toBe(toHex(genericFrame(from, ref, call)));
    }
  });

  it('returns a fresh buffer per call, unchanged by later calls', () => {
    const ref = identity.newReference();
    const first = codec.encodeCall(ref, { module: 'erlang', function: 'node', args: [] });
    const copy = toHex(first);
    codec.encodeCall(identity.newReference(), { module: 'other', function: 'call', args: [string('x'.repeat(2000))] });
    expect(toHex(first)).toBe(copy);
  });

  it('encodes a call larger than the kept scratch space, and small calls after it, like the generic encoder', () => {
    const big = { module: 'erlang', function: 'byte_size', args: [binary(new Uint8Array(200_000).fill(7))] };
    const small = { module: 'erlang', function: 'node', args: [] };
    for (const call of [big, small, big, small]) {
      const ref = identity.newReference();
      expect(Buffer.from(codec.encodeCall(ref, call)).equals(Buffer.from(genericFrame(caller, ref, call)))).toBe(true);
    }
  });

  it('throws ED_ERR_UNENCODABLE for arguments without an encoding, and encodes the next call correctly', () => {
    const ref = identity.newReference();
    expect(() => codec.encodeCall(ref, { module: 'm', function: 'f', args: [int(1.5)] })).toThrow(ErlangDistError);
    expect(() => codec.encodeCall(ref, { module: 'm', function: 'f', args: [float(Number.NaN)] })).toThrow(
      /cannot be encoded/,
    );
    const call = { module: 'erlang', function: 'node', args: [] };
    expect(toHex(codec.encodeCall(ref, call))).toBe(toHex(genericFrame(caller, ref, call)));
  });
});

describe('RexCallCodec.decodeReply', () => {
  it('reads {Ref, Reply} for every captured fixture term exactly as the generic decoders do', () => {
    let matched = 0;
    for (const fixture of termFixtures) {
      if (fixture.term === null) continue;
      const ref = identity.newReference();
      const payload = sendPayload(caller, tuple(ref, fixture.term));
      const fast = codec.decodeReply(payload);
      expect(fast, fixture.name).toEqual(genericReply(payload));
      expect(fast?.reply, fixture.name).toEqual(fixture.term);
      matched++;
    }
    expect(matched).toBeGreaterThan(50);
  });

  it('gives back the reference so that NodeIdentity finds its serial', () => {
    const serial = identity.newReferenceSerial();
    const fast = codec.decodeReply(sendPayload(caller, tuple(identity.referenceFor(serial), atom('ok'))));
    expect(fast && identity.referenceSerial(fast.ref)).toBe(serial);
  });

  it.each<[string, () => Uint8Array]>([
    [
      'a SEND to another pid',
      () =>
        sendPayload(
          pid(caller.node, caller.id + 1, caller.serial, caller.creation),
          tuple(identity.newReference(), NIL),
        ),
    ],
    [
      'a REG_SEND',
      () => encodeDistFrame(control.regSend(caller, 'rex'), tuple(identity.newReference(), NIL)).subarray(4),
    ],
    [
      'a SEND_TT with a trace token',
      () =>
        encodeDistFrame(tuple(int(12), atom(''), caller, atom('tok')), tuple(identity.newReference(), NIL)).subarray(4),
    ],
    [
      'a reference of another node',
      () => sendPayload(caller, tuple(reference('x@y', caller.creation, [1, 2, 3]), NIL)),
    ],
    ['a reference of another creation', () => sendPayload(caller, tuple(reference(caller.node, 5, [1, 2, 3]), NIL))],
    [
      'a 5-word reference',
      () => sendPayload(caller, tuple(reference(caller.node, caller.creation, [1, 2, 3, 4, 5]), NIL)),
    ],
    ['a 3-tuple message', () => sendPayload(caller, tuple(identity.newReference(), NIL, NIL))],
    ['the C-node reply {rex, Reply}', () => sendPayload(caller, tuple(atom('rex'), NIL))],
    ['a LINK (no message)', () => encodeDistFrame(control.link(pid('a@b', 1, 1, 1), caller)).subarray(4)],
    ['a compressed message', () => compressedSend(tuple(identity.newReference(), string('x'.repeat(100))))],
  ])('leaves %s to the generic path (undefined)', (_name, make) => {
    expect(codec.decodeReply(make())).toBeUndefined();
  });

  it('still reads a compressed reply through the generic path', () => {
    const ref = identity.newReference();
    const reply = genericReply(compressedSend(tuple(ref, string('x'.repeat(100)))));
    expect(reply).toEqual({ ref, reply: string('x'.repeat(100)) });
  });

  it('counts nesting as the generic decoder does (same verdict at the maxDepth limit)', () => {
    const shallow = new RexCallCodec(caller, { maxDepth: 5 });
    for (let depth = 0; depth <= 6; depth++) {
      let reply: Term = atom('leaf');
      for (let i = 0; i < depth; i++) reply = tuple(reply);
      const payload = sendPayload(caller, tuple(identity.newReference(), reply));
      const verdict = (fn: () => unknown) => {
        try {
          fn();
          return 'ok';
        } catch (error) {
          return (error as ErlangDistError).code;
        }
      };
      expect(
        verdict(() => shallow.decodeReply(payload)),
        `depth ${depth}`,
      ).toBe(verdict(() => genericReply(payload, { maxDepth: 5 })));
    }
  });

  it('throws ED_ERR_TRAILING_BYTES for bytes after the reply, like the generic path', () => {
    const payload = sendPayload(caller, tuple(identity.newReference(), atom('ok')));
    const longer = new Uint8Array(payload.length + 1);
    longer.set(payload);
    expect(thrownBy(() => codec.decodeReply(longer))).toMatchObject({ code: 'ED_ERR_TRAILING_BYTES' });
    expect(thrownBy(() => genericReply(longer))).toMatchObject({ code: 'ED_ERR_TRAILING_BYTES' });
  });

  it('fuzz: on 10,000 mutated reply payloads it throws only ErlangDistError and agrees with the generic path', () => {
    const next = seededRandom(0xc0dec);
    const seeds = termFixtures
      .filter((f) => f.term !== null)
      .map((f) => sendPayload(caller, tuple(identity.newReference(), f.term!)));
    let accepted = 0;
    let thrown = 0;
    for (let i = 0; i < 10_000; i++) {
      const base = seeds[Math.floor(next() * seeds.length)]!;
      const bytes = mutate(base, next);
      let fast: ReturnType<RexCallCodec['decodeReply']>;
      try {
        fast = codec.decodeReply(bytes);
      } catch (error) {
        if (!(error instanceof ErlangDistError))
          throw new Error(`non-ErlangDistError ${String(error)} for ${toHex(bytes)}`);
        expect(() => genericReply(bytes), toHex(bytes)).toThrow(ErlangDistError);
        thrown++;
        continue;
      }
      if (fast === undefined) continue;
      accepted++;
      expect(fast, toHex(bytes)).toEqual(genericReply(bytes));
    }
    // Both outcomes were exercised, not only the early "not mine" exit.
    expect(accepted).toBeGreaterThan(300);
    expect(thrown).toBeGreaterThan(300);
  });
});

describe('NodeIdentity reference serials', () => {
  it('inverts referenceFor for small, large and random serials', () => {
    const next = seededRandom(7);
    const serials = [
      0,
      1,
      0x3ffff,
      0x40000,
      2 ** 32,
      2 ** 50 - 1,
      ...Array.from({ length: 1000 }, () => Math.floor(next() * 2 ** 50)),
    ];
    for (const n of serials) expect(identity.referenceSerial(identity.referenceFor(n))).toBe(n);
  });

  it('numbers newReference and newReferenceSerial from one counter', () => {
    const id = new NodeIdentity('c@h', 9);
    const a = id.newReferenceSerial();
    const ref = id.newReference();
    expect(id.referenceSerial(ref)).toBe(a + 1);
    expect(id.newReferenceSerial()).toBe(a + 2);
  });

  it('finds no serial for references another identity, node or creation made, or with other words', () => {
    const other = new NodeIdentity(identity.node, identity.creation);
    const own = identity.referenceFor(12345);
    expect(identity.referenceSerial(other.referenceFor(12345))).toBeUndefined(); // different random salt
    expect(identity.referenceSerial({ ...own, node: 'x@y' })).toBeUndefined();
    expect(identity.referenceSerial({ ...own, creation: own.creation + 1 })).toBeUndefined();
    expect(identity.referenceSerial({ ...own, ids: own.ids.slice(0, 2) })).toBeUndefined();
    expect(identity.referenceSerial({ ...own, ids: [0x40000, own.ids[1]!, own.ids[2]!] })).toBeUndefined();
    expect(identity.referenceSerial({ ...own, ids: [1.5, own.ids[1]!, own.ids[2]!] })).toBeUndefined();
  });
});

/** A SEND to the caller whose message is a compressed term (tag 80), as OTP may send large ones. */
function compressedSend(message: Term): Uint8Array {
  const raw = encodeTerm(message).subarray(1);
  const w = new ByteWriter();
  w.u8(112);
  writeVersionedTerm(w, control.send(caller));
  w.u8(131);
  w.u8(80);
  w.u32(raw.length);
  w.bytes(deflateSync(raw));
  return w.finish();
}

/** One to three random edits: flip a byte, truncate, duplicate a slice, or append bytes. */
function mutate(base: Uint8Array, next: () => number): Uint8Array {
  let bytes = base.slice();
  const edits = 1 + Math.floor(next() * 3);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(next() * bytes.length);
    const kind = next();
    if (kind < 0.5) {
      bytes[at] = Math.floor(next() * 256);
    } else if (kind < 0.7) {
      bytes = bytes.slice(0, at);
    } else if (kind < 0.85) {
      const extra = bytes.slice(at, at + 1 + Math.floor(next() * 8));
      const out = new Uint8Array(bytes.length + extra.length);
      out.set(bytes.subarray(0, at));
      out.set(extra, at);
      out.set(bytes.subarray(at), at + extra.length);
      bytes = out;
    } else {
      const out = new Uint8Array(bytes.length + 1 + Math.floor(next() * 4));
      out.set(bytes);
      for (let i = bytes.length; i < out.length; i++) out[i] = Math.floor(next() * 256);
      bytes = out;
    }
  }
  return bytes;
}
