import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  control,
  decodeDistPayload,
  encodeDistFrame,
  ErlangDistError,
  matchRexReply,
  parseControlMessage,
  RexCallCodec,
  TICK_FRAME,
  type FrameDecoder,
  type NodeIdentity,
  type ReferenceTerm,
  type Term,
} from '@triad/erlang-dist';
import { ConnectionFailure, RpcTimeoutError } from './connection-failure.js';
import { openDistSocket, type DistSocket, type DistSocketOptions } from './open-dist-socket.js';

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
  /** `performance.now()` after which the call times out. */
  readonly deadline: number;
  readonly timeoutMs: number;
  readonly module: string;
  readonly fn: string;
  readonly arity: number;
}

/** A deadline this close (ms) counts as reached: timers fire on a millisecond clock. */
const DEADLINE_SLACK_MS = 1;
/** Longest delay `setTimeout` honours (Node fires after 1 ms beyond it); later deadlines re-arm. */
const MAX_TIMER_MS = 0x7fff_ffff;

/**
 * One long-lived hidden-node connection to an Erlang node, after a successful handshake.
 * - Framing: 4-byte frames; a received tick is answered with a tick at once, and we send our own
 *   tick when we wrote nothing during a whole `tickIntervalMs` (so the peer never sees more than
 *   2 × 15 s of silence, well inside its 60 s net_ticktime).
 * - RPC: `rpc` sends `{'$gen_call', {Pid, Ref}, {call, M, F, A, user}}` to `rex` with a fresh
 *   reference per call; replies `{Ref, Reply}` are matched by reference, so any number of calls may
 *   be in flight. Late replies (after the call timed out) are dropped. Requests and the common reply
 *   go through `RexCallCodec` (cached bytes); timeouts are deadlines swept by one timer armed for
 *   the earliest, not one timer per call.
 * - Writes: frames written during one turn of the event loop are gathered and leave in one
 *   `socket.write` (one syscall for a thousand calls in flight; one write per call when sequential).
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
  readonly #codec: RexCallCodec;
  readonly #rpcTimeoutMs: number;
  /** Outstanding calls by reference serial (`NodeIdentity.newReferenceSerial`). */
  readonly #pending = new Map<number, Pending>();
  readonly #closeListeners: ((failure: ConnectionFailure) => void)[] = [];
  readonly #tickTimer: NodeJS.Timeout;
  #wroteSinceTick = false;
  /** Frames written this turn of the event loop, flushed together on the next tick. */
  #outbox: Uint8Array[] = [];
  readonly #flush = (): void => this.#flushOutbox();
  #timeoutTimer: NodeJS.Timeout | undefined;
  #timeoutAt = Infinity;
  readonly #sweep = (): void => this.#sweepTimeouts();
  #failure: ConnectionFailure | undefined;

  /**
   * Resolves, looks up EPMD, connects and handshakes (see `openDistSocket`). Rejects with a
   * `ConnectionFailure` (`badCookie`, `notRegistered`, `epmdUnreachable`, `timeout` ...).
   */
  static async open(options: NodeConnectionOptions): Promise<NodeConnection> {
    return new NodeConnection(options, await openDistSocket(options));
  }

  private constructor(options: NodeConnectionOptions, dist: DistSocket) {
    const { socket, frames, identity } = dist;
    this.#node = options.node;
    this.peerName = dist.peer.peerName;
    this.#socket = socket;
    this.#frames = frames;
    this.#identity = identity;
    this.#codec = new RexCallCodec(identity.newPid());
    this.#rpcTimeoutMs = options.rpcTimeoutMs ?? CONNECTION_DEFAULTS.rpcTimeoutMs;
    const tickMs = options.tickIntervalMs ?? CONNECTION_DEFAULTS.tickIntervalMs;
    this.#tickTimer = setInterval(() => {
      if (!this.#wroteSinceTick) this.#write(TICK_FRAME);
      this.#wroteSinceTick = false;
    }, tickMs);
    this.#tickTimer.unref();
    dist.receive((bytes) => this.#onData(bytes));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      this.#shutdown(
        new ConnectionFailure('peerClosed', this.#node, `connection error ${error.code ?? ''}`.trim(), {
          code: error.code ?? 'error',
        }),
      ),
    );
    socket.on('close', () =>
      this.#shutdown(new ConnectionFailure('peerClosed', this.#node, 'the node closed the connection')),
    );
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
    const serial = this.#identity.newReferenceSerial();
    let frame: Uint8Array;
    try {
      frame = this.#codec.encodeCall(this.#identity.referenceFor(serial), { module, function: fn, args });
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const timeoutMs = options.timeoutMs ?? this.#rpcTimeoutMs;
    // NaN or negative: time out at the next sweep; Infinity: never.
    const deadline = performance.now() + (timeoutMs > 0 ? timeoutMs : 0);
    return new Promise<Term>((resolve, reject) => {
      this.#pending.set(serial, { resolve, reject, deadline, timeoutMs, module, fn, arity: args.length });
      if (deadline < this.#timeoutAt) this.#armTimeouts(deadline);
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
    // Frames written in the same turn of the event loop (many calls in flight) leave in one syscall.
    if (this.#outbox.push(bytes) === 1) process.nextTick(this.#flush);
  }

  #flushOutbox(): void {
    const frames = this.#outbox;
    this.#outbox = [];
    if (this.#failure || frames.length === 0) return;
    this.#socket.write(frames.length === 1 ? frames[0]! : Buffer.concat(frames));
  }

  /** (Re)arms the one timeout timer for `deadline`, the earliest of the pending calls. */
  #armTimeouts(deadline: number): void {
    clearTimeout(this.#timeoutTimer);
    this.#timeoutAt = deadline;
    const delayMs = Math.min(MAX_TIMER_MS, Math.max(0, Math.ceil(deadline - performance.now())));
    this.#timeoutTimer = setTimeout(this.#sweep, delayMs);
    // The socket keeps the process alive while calls are pending; this timer need not.
    this.#timeoutTimer.unref();
  }

  /** Rejects the calls whose deadline passed and re-arms for the earliest of the others. */
  #sweepTimeouts(): void {
    this.#timeoutTimer = undefined;
    this.#timeoutAt = Infinity;
    const now = performance.now() + DEADLINE_SLACK_MS;
    let next = Infinity;
    for (const [serial, pending] of this.#pending) {
      if (pending.deadline <= now) {
        this.#pending.delete(serial);
        pending.reject(
          new RpcTimeoutError(this.#node, `${pending.module}:${pending.fn}/${pending.arity}`, pending.timeoutMs),
        );
      } else if (pending.deadline < next) {
        next = pending.deadline;
      }
    }
    if (next !== Infinity) this.#armTimeouts(next);
  }

  /** `bytes` is a view of the shared read buffer: whatever is kept is copied (`detach`) before returning. */
  #onData(bytes: Uint8Array | undefined): void {
    if (this.#failure) return;
    try {
      if (bytes) this.#frames.push(bytes);
      for (let f = this.#frames.pull(); f && !this.#failure; f = this.#frames.pull()) {
        if (f.type === 'tick') this.#write(TICK_FRAME);
        else this.#onMessage(f.payload);
      }
      this.#frames.detach();
    } catch (error) {
      // Malformed input never escapes: close and report. Anything else is a bug, reported the same way.
      const code = error instanceof ErlangDistError ? error.code : 'unexpected';
      this.#shutdown(
        new ConnectionFailure('protocol', this.#node, `malformed data from the node (${code}); connection closed`, {
          code,
          cause: error,
        }),
      );
    }
  }

  #onMessage(payload: Uint8Array): void {
    const fast = this.#codec.decodeReply(payload);
    if (fast) return this.#settle(fast.ref, fast.reply);
    const msg = parseControlMessage(decodeDistPayload(payload));
    if (msg.op === 'send') {
      const reply = matchRexReply(msg.message);
      if (reply) this.#settle(reply.ref, reply.reply);
    } else if (msg.op === 'unlinkId') {
      // Owed before anything else goes to that pid (reference §4).
      this.#write(encodeDistFrame(control.unlinkIdAck(msg.id, msg.to, msg.from)));
    }
    // Links, exits, monitors and unknown control messages concern no process of ours: ignored.
  }

  /** Resolves the call waiting for `ref`; replies to calls that timed out (or were never made) are dropped. */
  #settle(ref: ReferenceTerm, reply: Term): void {
    const serial = this.#identity.referenceSerial(ref);
    if (serial === undefined) return;
    const pending = this.#pending.get(serial);
    if (!pending) return;
    this.#pending.delete(serial);
    pending.resolve(reply);
  }

  #shutdown(failure: ConnectionFailure): void {
    if (this.#failure) return;
    this.#failure = failure;
    clearInterval(this.#tickTimer);
    clearTimeout(this.#timeoutTimer);
    this.#timeoutTimer = undefined;
    this.#outbox = [];
    this.#socket.removeAllListeners('data');
    this.#socket.on('error', () => undefined);
    this.#socket.destroy();
    for (const pending of this.#pending.values()) pending.reject(failure);
    this.#pending.clear();
    for (const listener of this.#closeListeners.splice(0)) listener(failure);
  }
}
