import type { NodeState } from './node-connector.js';

/**
 * Why a connection to a node could not be opened or was lost, told apart as the issue asks:
 * - `badNodeName`: the text is not `alive@host`;
 * - `hostUnresolvable`: the host part does not resolve;
 * - `epmdUnreachable`: nothing answers EPMD on the host;
 * - `notRegistered`: EPMD answers but the node is not registered (the node is stopped);
 * - `distUnreachable`: EPMD gives a port but the TCP connect to it fails;
 * - `badCookie`: the node closed the connection after our challenge reply (OTP's silent refusal);
 * - `refused`: the handshake was refused with a status (`not_allowed`, `nok`, `alive` ...);
 * - `timeout`: connect or handshake did not finish in time (e.g. a frozen node);
 * - `healthTimeout`: an established connection stopped answering health calls;
 * - `peerClosed`: the node closed an established connection (killed, stopped, net split);
 * - `protocol`: the peer sent bytes we cannot decode; we closed the connection;
 * - `closedByUs`: `close()` was called.
 * Messages never contain the cookie.
 */
export type ConnectionFailureKind =
  | 'badNodeName'
  | 'hostUnresolvable'
  | 'epmdUnreachable'
  | 'notRegistered'
  | 'distUnreachable'
  | 'badCookie'
  | 'refused'
  | 'timeout'
  | 'healthTimeout'
  | 'peerClosed'
  | 'protocol'
  | 'closedByUs';

/** A failure to connect or a lost connection, with the kind, the node and a one-line reason. */
export class ConnectionFailure extends Error {
  readonly kind: ConnectionFailureKind;
  readonly node: string;
  /** Low-level code when there is one (ECONNREFUSED, ED_ERR_BAD_COOKIE, timeout ...). */
  readonly code: string | undefined;

  constructor(
    kind: ConnectionFailureKind,
    node: string,
    detail: string,
    options: { code?: string; cause?: unknown } = {},
  ) {
    super(`${node}: ${detail}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ConnectionFailure';
    this.kind = kind;
    this.node = node;
    this.code = options.code;
  }
}

/**
 * The node state a failure stands for: `STOPPED` when the host and EPMD answer but the node is
 * not registered, `DOWN` for everything else (the node cannot be reached or used, a wrong cookie
 * included — the failure kind says why).
 */
export function stateForFailure(kind: ConnectionFailureKind): NodeState {
  return kind === 'notRegistered' ? 'STOPPED' : 'DOWN';
}

/** An RPC got no reply within its timeout; the connection itself may still be fine. */
export class RpcTimeoutError extends Error {
  readonly node: string;
  readonly call: string;
  readonly timeoutMs: number;

  constructor(node: string, call: string, timeoutMs: number) {
    super(`${node}: no reply to ${call} within ${timeoutMs} ms`);
    this.name = 'RpcTimeoutError';
    this.node = node;
    this.call = call;
    this.timeoutMs = timeoutMs;
  }
}

/** An RPC for a node this connector holds no open connection to (not managed here, or not UP). */
export class NotConnectedError extends Error {
  readonly nodeId: string;

  constructor(nodeId: string) {
    super(`node ${nodeId} is not connected`);
    this.name = 'NotConnectedError';
    this.nodeId = nodeId;
  }
}
