import { randomInt } from 'node:crypto';
import { flagNames, missingMandatoryFlags } from './dist-flags.js';
import { ErlangDistError } from './errors.js';

/**
 * Checks shared by both sides of the handshake (`HandshakeClient`, `HandshakeServer`).
 * Throws ED_ERR_INVALID_ARGUMENT unless `creation` is in 1..2^32-1.
 */
export function checkCreation(creation: number): void {
  if (!Number.isInteger(creation) || creation < 1 || creation > 0xffff_ffff) {
    throw new ErlangDistError('ED_ERR_INVALID_ARGUMENT', { detail: `creation ${creation} is not in 1..2^32-1` });
  }
}

/** Throws ED_ERR_PEER_FLAGS, naming each missing flag, when the peer lacks a flag OTP 25+ requires. */
export function checkPeerFlags(peerFlags: bigint): void {
  const missing = missingMandatoryFlags(peerFlags);
  if (missing !== 0n) {
    throw new ErlangDistError('ED_ERR_PEER_FLAGS', {
      detail: flagNames(missing).join(', '),
      details: { peerFlags: `0x${peerFlags.toString(16)}`, missing: flagNames(missing) },
    });
  }
}

/** Our challenge: from `source` when given (tests), else a crypto-random u32. */
export function newChallenge(source: (() => number) | undefined): number {
  return (source ?? (() => randomInt(0, 0x1_0000_0000)))();
}

/** Throws ED_ERR_HANDSHAKE_STATE for a message that arrives in a state that expects none. */
export function unexpectedMessage(state: string): never {
  throw new ErlangDistError('ED_ERR_HANDSHAKE_STATE', {
    detail: `message received in state ${state}`,
    details: { state },
  });
}
