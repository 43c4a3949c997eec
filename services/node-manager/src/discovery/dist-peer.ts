import type { Socket } from 'node:net';
import {
  aliasesNegotiated,
  atom,
  control,
  decodeDistPayload,
  encodeDistFrame,
  genReply,
  isAtom,
  matchGenCall,
  parseControlMessage,
  TICK_FRAME,
  tuple,
  tupleOf,
  type FrameDecoder,
  type GenCall,
  type HandshakeResult,
  type PidTerm,
  type Term,
} from '@triad/erlang-dist';

/**
 * Answers a `gen_server:call` to one of our registered names; `caller` is the connected peer's
 * node name. The reply goes back as `{Tag, Reply}`. A rejection is answered `{error, internal}`.
 */
export type GenCallHandler = (request: Term, caller: string) => Promise<Term>;

/** Options of `DistPeer`. */
export interface DistPeerOptions {
  readonly socket: Socket;
  /** Already switched to 4-byte headers; may hold frames that came with the handshake. */
  readonly frames: FrameDecoder;
  readonly peer: HandshakeResult;
  /** The pid our replies come from (ALIAS_SEND names a sender). */
  readonly self: PidTerm;
  /** Our registered names; `net_kernel` is answered here. */
  readonly handlers: ReadonlyMap<string, GenCallHandler>;
  /** Send a tick when nothing was written during one interval, ms. */
  readonly tickIntervalMs: number;
  /** Called once when the connection ends, with the reason (`closed`, a protocol error code ...). */
  readonly onClose: (reason: string) => void;
}

/**
 * One accepted distribution connection after the handshake: answers ticks (and ticks itself when
 * idle, well inside the peer's 60 s net_ticktime), answers `net_kernel`'s `is_auth` with `yes`
 * (what `net_adm:ping` asks), hands `gen:call`s to our registered names to their handler, answers a
 * monitor of a name we do not have with `noproc` at once, and ignores every other message (a
 * visible peer's `global` sync messages included). A frame that does not decode ends the connection.
 */
export class DistPeer {
  readonly #o: DistPeerOptions;
  readonly #aliases: boolean;
  readonly #timer: NodeJS.Timeout;
  #wrote = false;
  #closed = false;

  constructor(options: DistPeerOptions) {
    this.#o = options;
    this.#aliases = aliasesNegotiated(options.peer);
    const { socket } = options;
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    socket.on('error', () => this.#end('socket error'));
    socket.on('close', () => this.#end('closed'));
    this.#timer = setInterval(() => {
      if (!this.#wrote) this.#write(TICK_FRAME);
      this.#wrote = false;
    }, options.tickIntervalMs);
    this.#timer.unref();
    this.#receive(new Uint8Array(0));
  }

  /** The peer's node name. */
  get name(): string {
    return this.#o.peer.peerName;
  }

  /** Closes the connection (the peer sees nodedown). */
  close(reason = 'closed by us'): void {
    this.#end(reason);
  }

  #end(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    this.#o.socket.destroy();
    this.#o.onClose(reason);
  }

  #write(frame: Uint8Array): void {
    if (this.#closed) return;
    this.#wrote = true;
    this.#o.socket.write(frame);
  }

  #receive(chunk: Uint8Array): void {
    const { frames } = this.#o;
    try {
      frames.push(chunk);
      for (let f = frames.pull(); f && !this.#closed; f = frames.pull()) {
        if (f.type === 'tick') this.#write(TICK_FRAME);
        else this.#dispatch(f.payload);
      }
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      this.#end(typeof code === 'string' ? code : 'malformed message');
    }
  }

  #dispatch(payload: Uint8Array): void {
    const message = parseControlMessage(decodeDistPayload(payload, { maxDepth: 64 }));
    if (message.op === 'regSend') this.#onRegSend(message.toName, message.message);
    else if (message.op === 'monitor') this.#onMonitor(message.from, message.to, message.ref);
    // Everything else (links, exits, a visible peer's `global` sync, sends to pids) needs no answer.
  }

  #onRegSend(toName: string, message: Term): void {
    const call = matchGenCall(message);
    if (!call) return;
    if (toName === 'net_kernel') {
      const request = tupleOf(call.request, 2);
      if (isAtom(request?.[0], 'is_auth')) this.#reply(call, atom('yes'));
      return;
    }
    const handler = this.#o.handlers.get(toName);
    if (!handler) return; // like a send to a name nobody registered
    handler(call.request, this.name).then(
      (reply) => this.#reply(call, reply),
      () => this.#reply(call, tuple(atom('error'), atom('internal'))),
    );
  }

  #onMonitor(from: Term, to: Term, ref: Term): void {
    const known = to.type === 'atom' && (to.name === 'net_kernel' || this.#o.handlers.has(to.name));
    if (known || from.type !== 'pid' || ref.type !== 'reference') return;
    const target = to.type === 'atom' || to.type === 'pid' ? to : this.#o.self;
    this.#write(encodeDistFrame(control.monitorExit(target, from, ref, atom('noproc'))));
  }

  #reply(call: GenCall, reply: Term): void {
    const out = genReply(call, reply, { self: this.#o.self, aliases: this.#aliases });
    this.#write(encodeDistFrame(out.control, out.message));
  }
}
