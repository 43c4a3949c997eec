import { ByteReader } from './byte-reader.js';
import { ByteWriter } from './byte-writer.js';
import { ErlangDistError } from './errors.js';

/**
 * Version-6 handshake messages (reference §2), as payloads without the 2-byte length prefix
 * (`encodeFrame(payload, 2)` adds it). Decoders throw ErlangDistError (ED_ERR_UNKNOWN_TAG for a
 * wrong tag byte, ED_ERR_TRUNCATED for short messages); offsets count from the payload start.
 */
export const HandshakeTag = Object.freeze({
  NAME: 78, // 'N' send_name (v6) and challenge
  OLD_NAME: 110, // 'n' send_name of version 5 (a peer started before it knew our version)
  COMPLEMENT: 99, // 'c' the high flags and creation after an old send_name
  STATUS: 115, // 's'
  CHALLENGE_REPLY: 114, // 'r'
  CHALLENGE_ACK: 97, // 'a'
} as const);

export interface SendName {
  readonly flags: bigint;
  readonly creation: number;
  readonly name: string;
}

export interface Challenge {
  readonly flags: bigint;
  readonly challenge: number;
  readonly creation: number;
  readonly name: string;
}

export interface ChallengeReply {
  readonly challenge: number;
  readonly digest: Uint8Array;
}

const utf8 = new TextEncoder();
const text = new TextDecoder();

function expectTag(r: ByteReader, tag: number, what: string): void {
  const found = r.u8(`${what} tag`);
  if (found !== tag) {
    throw new ErlangDistError('ED_ERR_UNKNOWN_TAG', {
      offset: 0,
      detail: `expected ${what} (${tag}), got ${found}`,
      details: { tag: found, expected: tag },
    });
  }
}

function writeName(w: ByteWriter, name: string): void {
  const bytes = utf8.encode(name);
  if (bytes.length > 0xffff)
    throw new ErlangDistError('ED_ERR_INVALID_ARGUMENT', { detail: 'node name longer than 65535 bytes' });
  w.u16(bytes.length);
  w.bytes(bytes);
}

/** send_name `N`: Flags u64, Creation u32, Nlen u16, Name. */
export function encodeSendName(m: SendName): Uint8Array {
  const w = new ByteWriter(32 + m.name.length);
  w.u8(HandshakeTag.NAME);
  w.u64(m.flags);
  w.u32(m.creation);
  writeName(w, m.name);
  return w.finish();
}

export function decodeSendName(payload: Uint8Array): SendName {
  const r = new ByteReader(payload);
  expectTag(r, HandshakeTag.NAME, 'send_name');
  const flags = r.u64('flags');
  const creation = r.u32('creation');
  const name = text.decode(r.take(r.u16('name length'), 'name'));
  return { flags, creation, name };
}

/**
 * The send_name of either version: `N` (above) or the version-5 `n` (Version u16, Flags u32, Name);
 * `old` tells which, as an accepting node must answer a `n` with DFLAG_HANDSHAKE_23 by expecting a
 * complement. The creation of an old send_name is 0 (it comes in the complement).
 */
export function decodeAnySendName(payload: Uint8Array): SendName & { readonly old: boolean } {
  if (payload[0] === HandshakeTag.NAME) return { ...decodeSendName(payload), old: false };
  const r = new ByteReader(payload);
  expectTag(r, HandshakeTag.OLD_NAME, 'send_name');
  r.u16('version');
  const flags = BigInt(r.u32('flags'));
  const name = text.decode(r.take(r.remaining));
  return { flags, creation: 0, name, old: true };
}

/** complement `c`: FlagsHigh u32, Creation u32 (after an old send_name with DFLAG_HANDSHAKE_23). */
export function decodeComplement(payload: Uint8Array): { readonly flagsHigh: bigint; readonly creation: number } {
  const r = new ByteReader(payload);
  expectTag(r, HandshakeTag.COMPLEMENT, 'complement');
  const flagsHigh = BigInt(r.u32('flags high'));
  const creation = r.u32('creation');
  r.end('complement');
  return { flagsHigh, creation };
}

/** Status `s` + ASCII text (`ok`, `ok_simultaneous`, `nok`, `not_allowed`, `alive`, `true`, `false`). */
export function encodeStatus(status: string): Uint8Array {
  const w = new ByteWriter(16);
  w.u8(HandshakeTag.STATUS);
  w.latin1(status);
  return w.finish();
}

export function decodeStatus(payload: Uint8Array): string {
  const r = new ByteReader(payload);
  expectTag(r, HandshakeTag.STATUS, 'status');
  return Buffer.from(r.take(r.remaining)).toString('latin1');
}

/** Challenge `N`: Flags u64, Challenge u32, Creation u32, Nlen u16, Name; trailing bytes ignored. */
export function encodeChallenge(m: Challenge): Uint8Array {
  const w = new ByteWriter(32 + m.name.length);
  w.u8(HandshakeTag.NAME);
  w.u64(m.flags);
  w.u32(m.challenge);
  w.u32(m.creation);
  writeName(w, m.name);
  return w.finish();
}

export function decodeChallenge(payload: Uint8Array): Challenge {
  const r = new ByteReader(payload);
  expectTag(r, HandshakeTag.NAME, 'challenge');
  const flags = r.u64('flags');
  const challenge = r.u32('challenge');
  const creation = r.u32('creation');
  const name = text.decode(r.take(r.u16('name length'), 'name'));
  return { flags, challenge, creation, name };
}

/** challenge_reply `r`: our Challenge u32, Digest (16 bytes). */
export function encodeChallengeReply(m: ChallengeReply): Uint8Array {
  const w = new ByteWriter(21);
  w.u8(HandshakeTag.CHALLENGE_REPLY);
  w.u32(m.challenge);
  w.bytes(m.digest);
  return w.finish();
}

export function decodeChallengeReply(payload: Uint8Array): ChallengeReply {
  const r = new ByteReader(payload);
  expectTag(r, HandshakeTag.CHALLENGE_REPLY, 'challenge_reply');
  const challenge = r.u32('challenge');
  const digest = r.take(16, 'digest').slice();
  r.end('challenge_reply');
  return { challenge, digest };
}

/** challenge_ack `a`: Digest (16 bytes). */
export function encodeChallengeAck(digest: Uint8Array): Uint8Array {
  const w = new ByteWriter(17);
  w.u8(HandshakeTag.CHALLENGE_ACK);
  w.bytes(digest);
  return w.finish();
}

export function decodeChallengeAck(payload: Uint8Array): Uint8Array {
  const r = new ByteReader(payload);
  expectTag(r, HandshakeTag.CHALLENGE_ACK, 'challenge_ack');
  const digest = r.take(16, 'digest').slice();
  r.end('challenge_ack');
  return digest;
}
