import { challengeDigest, digestsEqual } from './challenge-digest.js';
import { HIDDEN_CLIENT_FLAGS } from './dist-flags.js';
import { ErlangDistError } from './errors.js';
import { checkCreation, checkPeerFlags, newChallenge, unexpectedMessage } from './handshake-checks.js';
import { encodeFrame } from './frame-decoder.js';
import {
  decodeChallenge,
  decodeChallengeAck,
  decodeStatus,
  encodeChallengeReply,
  encodeSendName,
  encodeStatus,
} from './handshake-messages.js';

export interface HandshakeClientOptions {
  /** Our full node name, `alive@host`. */
  readonly name: string;
  /** The cookie shared with the peer (never logged or put into errors). */
  readonly cookie: string;
  /** Our creation, 1..2^32-1; the same value must go into our pids and references. */
  readonly creation: number;
  /** Advertised flags; default HIDDEN_CLIENT_FLAGS. */
  readonly flags?: bigint;
  /** Answer to status `alive` (a connection under our name exists): take it over or give up. Default false. */
  readonly takeOverAlive?: boolean;
  /** Source of our challenge; default a crypto-random u32. */
  readonly randomChallenge?: () => number;
}

/** The outcome of a completed handshake. */
export interface HandshakeResult {
  readonly peerName: string;
  readonly peerFlags: bigint;
  readonly peerCreation: number;
  /** Flags in force: the intersection of both sides' flags. */
  readonly flags: bigint;
}

/**
 * What to do after a received frame: write `send` (already framed, 2-byte), and when `result` is
 * set the connection is up.
 */
export interface HandshakeStep {
  readonly send: readonly Uint8Array[];
  readonly result?: HandshakeResult;
}

export type HandshakeState = 'initial' | 'awaitStatus' | 'awaitChallenge' | 'awaitAck' | 'connected' | 'failed';

/**
 * The initiating side of the version-6 handshake as a pure state machine: no sockets, no timers.
 * `start()` gives the send_name frame; each handshake payload received (from a 2-byte
 * `FrameDecoder`) goes to `receive`, which returns frames to write and, at the end, the result.
 * After the result, switch the frame decoder to 4-byte headers. Refusals and protocol violations
 * throw ErlangDistError (ED_ERR_HANDSHAKE_REFUSED with `details.status`, ED_ERR_PEER_FLAGS,
 * ED_ERR_BAD_DIGEST, ED_ERR_HANDSHAKE_STATE, decoding errors) and leave the state `failed`.
 * When the peer closes the socket, `closedError()` tells what that means in the current state
 * (after our challenge reply: ED_ERR_BAD_COOKIE, as OTP closes silently on a wrong cookie).
 */
export class HandshakeClient {
  readonly #options: HandshakeClientOptions;
  readonly #flags: bigint;
  #state: HandshakeState = 'initial';
  #ourChallenge = 0;
  #peer: { readonly flags: bigint; readonly creation: number; readonly name: string } | undefined;

  constructor(options: HandshakeClientOptions) {
    checkCreation(options.creation);
    if (!/^[0-9A-Za-z_-]+@[!-\u00ff]+$/.test(options.name)) {
      throw new ErlangDistError('ED_ERR_INVALID_ARGUMENT', {
        detail: `node name ${JSON.stringify(options.name)} is not alive@host`,
      });
    }
    this.#options = options;
    this.#flags = options.flags ?? HIDDEN_CLIENT_FLAGS;
  }

  get state(): HandshakeState {
    return this.#state;
  }

  /** The framed send_name message; call once, first. */
  start(): Uint8Array {
    this.#expect('initial');
    this.#state = 'awaitStatus';
    return encodeFrame(
      encodeSendName({ flags: this.#flags, creation: this.#options.creation, name: this.#options.name }),
      2,
    );
  }

  /** Handles one received handshake payload (without its length prefix). */
  receive(payload: Uint8Array): HandshakeStep {
    try {
      switch (this.#state) {
        case 'awaitStatus':
          return this.#onStatus(decodeStatus(payload));
        case 'awaitChallenge':
          return this.#onChallenge(payload);
        case 'awaitAck':
          return this.#onAck(payload);
        case 'initial':
        case 'connected':
        case 'failed':
          return unexpectedMessage(this.#state);
      }
    } catch (error) {
      this.#state = 'failed';
      throw error;
    }
  }

  /** The error that a peer closing the connection now stands for. */
  closedError(): ErlangDistError {
    const state = this.#state;
    if (state === 'awaitAck') return new ErlangDistError('ED_ERR_BAD_COOKIE', { details: { state } });
    return new ErlangDistError('ED_ERR_CONNECTION_CLOSED', { detail: `in state ${state}`, details: { state } });
  }

  #expect(state: HandshakeState): void {
    if (this.#state !== state) {
      throw new ErlangDistError('ED_ERR_HANDSHAKE_STATE', {
        detail: `expected state ${state}, in ${this.#state}`,
        details: { state: this.#state },
      });
    }
  }

  #onStatus(status: string): HandshakeStep {
    if (status === 'ok' || status === 'ok_simultaneous') {
      this.#state = 'awaitChallenge';
      return { send: [] };
    }
    if (status === 'alive') {
      const takeOver = this.#options.takeOverAlive === true;
      if (takeOver) {
        this.#state = 'awaitChallenge';
        return { send: [encodeFrame(encodeStatus('true'), 2)] };
      }
      // Closing the socket is as good as answering `false`: the peer keeps its old connection.
      throw new ErlangDistError('ED_ERR_HANDSHAKE_REFUSED', {
        detail: 'status alive: a connection with our name exists',
        details: { status },
      });
    }
    throw new ErlangDistError('ED_ERR_HANDSHAKE_REFUSED', {
      detail: `status ${JSON.stringify(status)}`,
      details: { status },
    });
  }

  #onChallenge(payload: Uint8Array): HandshakeStep {
    const challenge = decodeChallenge(payload);
    checkPeerFlags(challenge.flags);
    this.#ourChallenge = newChallenge(this.#options.randomChallenge);
    const digest = challengeDigest(this.#options.cookie, challenge.challenge);
    this.#state = 'awaitAck';
    this.#peer = challenge;
    return { send: [encodeFrame(encodeChallengeReply({ challenge: this.#ourChallenge, digest }), 2)] };
  }

  #onAck(payload: Uint8Array): HandshakeStep {
    const digest = decodeChallengeAck(payload);
    if (!digestsEqual(digest, challengeDigest(this.#options.cookie, this.#ourChallenge))) {
      throw new ErlangDistError('ED_ERR_BAD_DIGEST');
    }
    const peer = this.#peer!;
    this.#state = 'connected';
    return {
      send: [],
      result: {
        peerName: peer.name,
        peerFlags: peer.flags,
        peerCreation: peer.creation,
        flags: peer.flags & this.#flags,
      },
    };
  }
}
