import type { Socket } from 'node:net';
import {
  control,
  decodeDistPayload,
  encodeDistFrame,
  ErlangDistError,
  matchRexReply,
  parseControlMessage,
  referenceKey,
  rexCallMessage,
  TICK_FRAME,
  type FrameDecoder,
  type NodeIdentity,
  type PidTerm,
  type Term,
} from '@triad/erlang-dist';
import { ConnectionFailure, RpcTimeoutError } from './connection-failure.js';
import { openDistSocket, type DistSocketOptions } from './open-dist-socket.js';

/** Options of `NodeConnection.open`. */
export interface NodeConnectionOptions extends DistSocketOptions {
  /** Send a tick when nothing was written during one interval. Default 15000 ms (net_ticktime / 4). */
  readonly tickIntervalMs?: number;
  /** Default timeout of `rpc`. Default 5000 ms. */
  readonly rpcTimeoutMs?: number;
}

/** Defaults of `NodeConnectionOptions` beyond the connect budget. */
export const CONNECTION_DEFAULTS = Object.freeze({
  tickIntervalMs: 15_000, // 15 s
  rpcTimeoutMs: 5_000, // 5 s
});

interface Pending {
  readonly resolve: (reply: Term) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * One long-lived hidden-node connection to an Erlang node, after a successful handshake.
 * - Framing: 4-byte frames; a received tick is answered with a tick at once, and we send our own
 *   tick when we wrote nothing during a whole `tickIntervalMs` (so the peer never sees more than
 *   2 × 15 s of silence, well inside its 60 s net_ticktime).
 * - RPC: `rpc` sends `{'$gen_call', {Pid, Ref}, {call, M, F, A, user}}` to `rex` with a fresh
 *   reference per call; replies `{Ref, Reply}` are matched by reference, so any number of calls may
 *   be in flight. Late replies (after the call timed out) are dropped.
 * - Malformed input from the peer closes the connection with kind `protocol`; nothing escapes.
 * - Closing (either side) rejects every pending call with the `ConnectionFailure` and calls the
 *   `onClose` listeners once.
 */
export class NodeConnection {
  /** The peer as it named itself in the handshake. */
  readonly peerName: string;
  readonly #node: string;
  readonly #socket: Socket;
  readonly #frames: FrameDecoder;
  readonly #identity: NodeIdentity;
  readonly #self: PidTerm;
  readonly #rpcTimeoutMs: number;
  readonly #pending = new Map<string, Pending>();
  readonly #closeListeners: ((failure: ConnectionFailure) => void)[] = [];
  readonly #tickTimer: NodeJS.Timeout;
  #wroteSinceTick = false;
  #corked = false;
  #failure: ConnectionFailure | undefined;

  /**
   * Resolves, looks up EPMD, connects and handshakes (see `openDistSocket`). Rejects with a
   * `ConnectionFailure` (`badCookie`, `notRegistered`, `epmdUnreachable`, `timeout` ...).
   */
  static async open(options: NodeConnectionOptions): Promise<NodeConnection> {
    const dist = await openDistSocket(options);
    return new NodeConnection(options, dist.socket, dist.frames, dist.identity, dist.peer.peerName);
  }

  private constructor(options: NodeConnectionOptions, socket: Socket, frames: FrameDecoder, identity: NodeIdentity, peerName: string) {
    this.#node = options.node;
    this.peerName = peerName;
    this.#socket = socket;
    this.#frames = frames;
    this.#identity = identity;
    this.#self = identity.newPid();
    this.#rpcTimeoutMs = options.rpcTimeoutMs ?? CONNECTION_DEFAULTS.rpcTimeoutMs;
    const tickMs = options.tickIntervalMs ?? CONNECTION_DEFAULTS.tickIntervalMs;
    this.#tickTimer = setInterval(() => {
      if (!this.#wroteSinceTick) this.#write(TICK_FRAME);
      this.#wroteSinceTick = false;
    }, tickMs);
    this.#tickTimer.unref();
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      this.#shutdown(new ConnectionFailure('peerClosed', this.#node, `connection error ${error.code ?? ''}`.trim(), { code: error.code ?? 'error' })),
    );
    socket.on('close', () => this.#shutdown(new ConnectionFailure('peerClosed', this.#node, 'the node closed the connection')));
    socket.setKeepAlive(true);
    // Frames that arrived in the same chunk as the handshake's last message.
    this.#onData(undefined);
  }

  /** Our hidden node's name on this connection (filter it out of `nodes(connected)`). */
  get localName(): string {
    return this.#identity.node;
  }

  /** True until the connection closed. */
  get isOpen(): boolean {
    return this.#failure === undefined;
  }

  /** Why the connection closed; undefined while open. */
  get failure(): ConnectionFailure | undefined {
    return this.#failure;
  }

  /** Calls currently waiting for their reply. */
  get inFlight(): number {
    return this.#pending.size;
  }

  /** Registers a listener called once, when the connection closes for any reason. */
  onClose(listener: (failure: ConnectionFailure) => void): void {
    if (this.#failure) queueMicrotask(() => listener(this.#failure!));
    else this.#closeListeners.push(listener);
  }

  /**
   * `Module:Function(Args...)` on the node through rex. Resolves with the reply term as rex sends
   * it, `{badrpc, Reason}` included (see `badRpcReason`). Rejects with `RpcTimeoutError` after
   * `timeoutMs` (default the connection's `rpcTimeoutMs`), with the `ConnectionFailure` when the
   * connection is or becomes closed, and with `ErlangDistError` (ED_ERR_UNENCODABLE) for arguments
   * that cannot be encoded.
   */
  rpc(module: string, fn: string, args: readonly Term[] = [], options: { timeoutMs?: number } = {}): Promise<Term> {
    if (this.#failure) return Promise.reject(this.#failure);
    const ref = this.#identity.newReference();
    let frame: Uint8Array;
    try {
      const { control: ctl, message } = rexCallMessage(this.#self, ref, { module, function: fn, args });
      frame = encodeDistFrame(ctl, message);
    } catch (error) {
      return Promise.reject(error);
    }
    const key = referenceKey(ref);
    const timeoutMs = options.timeoutMs ?? this.#rpcTimeoutMs;
    return new Promise<Term>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(key);
        reject(new RpcTimeoutError(this.#node, `${module}:${fn}/${args.length}`, timeoutMs));
      }, timeoutMs);
      this.#pending.set(key, { resolve, reject, timer });
      this.#write(frame);
    });
  }

  /**
   * Closes the connection (idempotent). Pending calls and `onClose` listeners get `reason`,
   * by default a failure of kind `closedByUs` (a health monitor passes `healthTimeout`).
   */
  close(reason?: ConnectionFailure): void {
    this.#shutdown(reason ?? new ConnectionFailure('closedByUs', this.#node, 'closed by the node manager'));
  }

  #write(bytes: Uint8Array): void {
    if (this.#failure) return;
    this.#wroteSinceTick = true;
    // Writes made in the same turn of the event loop (many calls in flight) leave in one syscall.
    if (!this.#corked) {
      this.#corked = true;
      this.#socket.cork();
      process.nextTick(() => {
        this.#corked = false;
        this.#socket.uncork();
      });
    }
    this.#socket.write(bytes);
  }

  #onData(chunk: Buffer | undefined): void {
    if (this.#failure) return;
    try {
      if (chunk) this.#frames.push(chunk);
      for (let f = this.#frames.pull(); f && !this.#failure; f = this.#frames.pull()) {
        if (f.type === 'tick') this.#write(TICK_FRAME);
        else this.#onMessage(f.payload);
      }
    } catch (error) {
      // Malformed input never escapes: close and report. Anything else is a bug, reported the same way.
      const code = error instanceof ErlangDistError ? error.code : 'unexpected';
      this.#shutdown(new ConnectionFailure('protocol', this.#node, `malformed data from the node (${code}); connection closed`, { code, cause: error }));
    }
  }

  #onMessage(payload: Uint8Array): void {
    const msg = parseControlMessage(decodeDistPayload(payload));
    if (msg.op === 'send') {
      const reply = matchRexReply(msg.message);
      if (!reply) return;
      const key = referenceKey(reply.ref);
      const pending = this.#pending.get(key);
      if (!pending) return;
      this.#pending.delete(key);
      clearTimeout(pending.timer);
      pending.resolve(reply.reply);
    } else if (msg.op === 'unlinkId') {
      // Owed before anything else goes to that pid (reference §4).
      this.#write(encodeDistFrame(control.unlinkIdAck(msg.id, msg.to, msg.from)));
    }
    // Links, exits, monitors and unknown control messages concern no process of ours: ignored.
  }

  #shutdown(failure: ConnectionFailure): void {
    if (this.#failure) return;
    this.#failure = failure;
    clearInterval(this.#tickTimer);
    this.#socket.removeAllListeners('data');
    this.#socket.on('error', () => undefined);
    this.#socket.destroy();
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(failure);
    }
    this.#pending.clear();
    for (const listener of this.#closeListeners.splice(0)) listener(failure);
  }
}
