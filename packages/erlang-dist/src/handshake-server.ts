import { challengeDigest, digestsEqual } from './challenge-digest.js';
import { DistFlag, VISIBLE_NODE_FLAGS } from './dist-flags.js';
import { ErlangDistError } from './errors.js';
import { checkCreation, checkPeerFlags, newChallenge, unexpectedMessage } from './handshake-checks.js';
import { encodeFrame } from './frame-decoder.js';
import {
  decodeAnySendName,
  decodeChallengeReply,
  decodeComplement,
  encodeChallenge,
  encodeChallengeAck,
  encodeStatus,
} from './handshake-messages.js';
import type { HandshakeResult, HandshakeStep } from './handshake-client.js';

export interface HandshakeServerOptions {
  /** Our full node name, `alive@host`, as registered with EPMD. */
  readonly name: string;
  /** Our cookie (never logged or put into errors). */
  readonly cookie: string;
  /** Our creation (from EPMD's ALIVE2_X_RESP), 1..2^32-1. */
  readonly creation: number;
  /** Advertised flags; default VISIBLE_NODE_FLAGS. */
  readonly flags?: bigint;
  /** Source of our challenge; default a crypto-random u32. */
  readonly randomChallenge?: () => number;
  /**
   * Whether a peer of this name may connect (e.g. a cap on connections); a refused peer gets
   * status `not_allowed`. Default: everyone.
   */
  readonly allow?: (peerName: string) => boolean;
}

export type HandshakeServerState = 'awaitName' | 'awaitComplement' | 'awaitReply' | 'connected' | 'failed';

/** Longest peer node name accepted (an Erlang atom holds at most 255 characters). */
export const MAX_PEER_NAME_BYTES = 255;

const PEER_NAME = /^[0-9A-Za-z_-]+@[!-\u00ff]+$/;

/**
 * The accepting side of the version-6 handshake as a pure state machine: no sockets, no timers.
 * Feed each payload of a 2-byte `FrameDecoder` to `receive`; it returns frames to write and, once
 * the peer proved it knows the cookie, the result (then switch the decoder to 4-byte headers).
 * Accepts the `N` send_name and the version-5 `n` with DFLAG_HANDSHAKE_23 (followed by a `c`
 * complement), as OTP 23+ does. The peer's digest is compared in constant time. Failures throw
 * ErlangDistError and leave the state `failed`: ED_ERR_PEER_FLAGS (a peer without the OTP-25
 * mandatory flags), ED_ERR_INVALID_ARGUMENT (a malformed node name), ED_ERR_BAD_DIGEST (wrong
 * cookie: close silently, as OTP does), ED_ERR_HANDSHAKE_REFUSED (`allow` said no; `refusal`
 * holds the status frame to write before closing), ED_ERR_HANDSHAKE_STATE and decoding errors.
 */
export class HandshakeServer {
  readonly #options: HandshakeServerOptions;
  readonly #flags: bigint;
  #state: HandshakeServerState = 'awaitName';
  #ourChallenge = 0;
  #peer: { flags: bigint; creation: number; name: string } | undefined;
  /** The status frame to write before closing after a refusal. */
  refusal: Uint8Array | undefined;

  constructor(options: HandshakeServerOptions) {
    checkCreation(options.creation);
    this.#options = options;
    this.#flags = options.flags ?? VISIBLE_NODE_FLAGS;
  }

  get state(): HandshakeServerState {
    return this.#state;
  }

  /** The peer's name once its send_name arrived (for logs). */
  get peerName(): string | undefined {
    return this.#peer?.name;
  }

  /** Handles one received handshake payload (without its length prefix). */
  receive(payload: Uint8Array): HandshakeStep {
    try {
      switch (this.#state) {
        case 'awaitName':
          return this.#onName(payload);
        case 'awaitComplement':
          return this.#onComplement(payload);
        case 'awaitReply':
          return this.#onReply(payload);
        case 'connected':
        case 'failed':
          return unexpectedMessage(this.#state);
      }
    } catch (error) {
      this.#state = 'failed';
      throw error;
    }
  }

  #onName(payload: Uint8Array): HandshakeStep {
    const sent = decodeAnySendName(payload);
    if (Buffer.byteLength(sent.name, 'latin1') > MAX_PEER_NAME_BYTES || !PEER_NAME.test(sent.name)) {
      throw new ErlangDistError('ED_ERR_INVALID_ARGUMENT', {
        detail: `peer node name ${JSON.stringify(sent.name.slice(0, 300))} is not alive@host`,
      });
    }
    checkPeerFlags(sent.flags);
    if (this.#options.allow && !this.#options.allow(sent.name)) {
      this.refusal = encodeFrame(encodeStatus('not_allowed'), 2);
      throw new ErlangDistError('ED_ERR_HANDSHAKE_REFUSED', {
        detail: 'not_allowed',
        details: { status: 'not_allowed' },
      });
    }
    this.#peer = { flags: sent.flags, creation: sent.creation, name: sent.name };
    this.#ourChallenge = newChallenge(this.#options.randomChallenge);
    // An old send_name always carries DFLAG_HANDSHAKE_23 here (it is mandatory): the complement follows.
    this.#state = sent.old ? 'awaitComplement' : 'awaitReply';
    const challenge = encodeChallenge({
      flags: this.#flags,
      challenge: this.#ourChallenge,
      creation: this.#options.creation,
      name: this.#options.name,
    });
    return { send: [encodeFrame(encodeStatus('ok'), 2), encodeFrame(challenge, 2)] };
  }

  #onComplement(payload: Uint8Array): HandshakeStep {
    const { flagsHigh, creation } = decodeComplement(payload);
    const peer = this.#peer!;
    peer.flags = (peer.flags & 0xffff_ffffn) | (flagsHigh << 32n);
    peer.creation = creation;
    this.#state = 'awaitReply';
    return { send: [] };
  }

  #onReply(payload: Uint8Array): HandshakeStep {
    const reply = decodeChallengeReply(payload);
    if (!digestsEqual(reply.digest, challengeDigest(this.#options.cookie, this.#ourChallenge))) {
      throw new ErlangDistError('ED_ERR_BAD_DIGEST', { detail: 'challenge_reply' });
    }
    const peer = this.#peer!;
    this.#state = 'connected';
    const ack = encodeChallengeAck(challengeDigest(this.#options.cookie, reply.challenge));
    return {
      send: [encodeFrame(ack, 2)],
      result: {
        peerName: peer.name,
        peerFlags: peer.flags,
        peerCreation: peer.creation,
        flags: peer.flags & this.#flags,
      },
    };
  }
}

/** True when both sides negotiated process aliases (replies to `[alias | Ref]` tags go by ALIAS_SEND). */
export function aliasesNegotiated(result: HandshakeResult): boolean {
  return (result.flags & DistFlag.ALIAS) !== 0n;
}
