import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import {
  ErlangDistError,
  FrameDecoder,
  HandshakeServer,
  NodeIdentity,
  type HandshakeResult,
  type PidTerm,
} from '@triad/erlang-dist';
import { DistPeer, type GenCallHandler } from './dist-peer.js';

/** Limits and timing of `DistListener`. */
export interface DistListenerLimits {
  /** Open connections (handshaking or up) at most; one more is closed at once. */
  readonly maxConnections: number;
  /** A peer must finish the handshake within this time, ms (net_setuptime's 7 s). */
  readonly handshakeTimeoutMs: number;
  /** Largest frame accepted after the handshake, bytes; a larger one ends the connection. */
  readonly maxFrameBytes: number;
  /** Idle interval after which we send a tick, ms (net_ticktime / 4). */
  readonly tickIntervalMs: number;
}

export const DIST_LISTENER_DEFAULTS: DistListenerLimits = Object.freeze({
  maxConnections: 1_024,
  handshakeTimeoutMs: 7_000, // 7 s
  maxFrameBytes: 1024 * 1024, // 1 MiB: the calls we answer are a few hundred bytes
  tickIntervalMs: 15_000, // 15 s
});

/** What happened on the listener, for logs (never holds the cookie). */
export type DistListenerEvent =
  | { readonly kind: 'connected'; readonly peer: string }
  | { readonly kind: 'disconnected'; readonly peer: string; readonly reason: string }
  | { readonly kind: 'refused'; readonly address: string; readonly reason: string };

/** Options of `DistListener.listen`. */
export interface DistListenerOptions {
  /** Our node name, `alive@host`. */
  readonly name: string;
  /** The cookie peers must prove they know. */
  readonly cookie: string;
  /** Our registered names and what answers their `gen:call`s (`net_kernel` is built in). */
  readonly handlers: ReadonlyMap<string, GenCallHandler>;
  /** TCP port, 0 for any free one. */
  readonly port: number;
  /** Address to listen on. */
  readonly host: string;
  readonly limits?: Partial<DistListenerLimits>;
  readonly onEvent?: (event: DistListenerEvent) => void;
}

/**
 * The accepting side of Erlang distribution: a TCP server that runs `HandshakeServer` on every
 * connection (within `handshakeTimeoutMs`, frames capped), then hands it to a `DistPeer`. A new
 * connection from a node already connected replaces the old one (the node restarted). Connections
 * are refused until `ready(creation)` gives the creation EPMD assigned.
 */
export class DistListener {
  readonly #o: DistListenerOptions;
  readonly #limits: DistListenerLimits;
  readonly #server: Server;
  readonly #peers = new Map<string, DistPeer>();
  readonly #sockets = new Set<Socket>();
  #identity: { creation: number; self: PidTerm } | undefined;

  private constructor(options: DistListenerOptions, server: Server) {
    this.#o = options;
    this.#limits = Object.freeze({ ...DIST_LISTENER_DEFAULTS, ...options.limits });
    this.#server = server;
    server.maxConnections = this.#limits.maxConnections;
    server.on('connection', (socket) => this.#accept(socket));
    server.on('drop', (data) =>
      this.#event({ kind: 'refused', address: data?.remoteAddress ?? '?', reason: 'too many connections' }),
    );
  }

  /** Listens on `options.host:options.port`; rejects when the port cannot be had. */
  static listen(options: DistListenerOptions): Promise<DistListener> {
    const server = createServer({ noDelay: true });
    const listener = new DistListener(options, server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve(listener);
      });
    });
  }

  /** The port listened on. */
  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /** Names of the nodes connected now. */
  get peers(): readonly string[] {
    return [...this.#peers.keys()];
  }

  /** Starts accepting handshakes with the creation EPMD gave our name. */
  ready(creation: number): void {
    const identity = new NodeIdentity(this.#o.name, creation);
    this.#identity = { creation, self: identity.newPid() };
  }

  /** Stops listening and closes every connection. */
  async close(): Promise<void> {
    for (const peer of this.#peers.values()) peer.close('shutting down');
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #event(event: DistListenerEvent): void {
    this.#o.onEvent?.(event);
  }

  #accept(socket: Socket): void {
    const address = socket.remoteAddress ?? '?';
    const identity = this.#identity;
    if (!identity) {
      socket.destroy();
      return;
    }
    this.#sockets.add(socket);
    const hs = new HandshakeServer({ name: this.#o.name, cookie: this.#o.cookie, creation: identity.creation });
    const frames = new FrameDecoder({ headerBytes: 2, maxFrameBytes: this.#limits.maxFrameBytes });
    let done = false;
    const refuse = (reason: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.removeAllListeners('data');
      socket.destroy();
      this.#sockets.delete(socket);
      this.#event({ kind: 'refused', address, reason });
    };
    const timer = setTimeout(
      () => refuse(`no handshake within ${this.#limits.handshakeTimeoutMs} ms`),
      this.#limits.handshakeTimeoutMs,
    );
    socket.on('error', () => refuse('socket error during the handshake'));
    socket.on('close', () => refuse('closed during the handshake'));
    socket.on('data', (chunk: Buffer) => {
      try {
        frames.push(chunk);
        for (let f = frames.pull(); f && !done; f = frames.pull()) {
          if (f.type !== 'data') continue;
          const step = hs.receive(f.payload);
          for (const out of step.send) socket.write(out);
          if (step.result) {
            done = true;
            clearTimeout(timer);
            socket.removeAllListeners();
            this.#up(socket, frames, step.result, identity.self);
            return;
          }
        }
      } catch (error) {
        // A wrong cookie is closed silently, as OTP does; a refusal says its status first.
        if (hs.refusal) socket.write(hs.refusal);
        const code = error instanceof ErlangDistError ? error.code : 'unexpected';
        refuse(code === 'ED_ERR_BAD_DIGEST' ? `wrong cookie from ${hs.peerName ?? '?'}` : code);
      }
    });
  }

  #up(socket: Socket, frames: FrameDecoder, result: HandshakeResult, self: PidTerm): void {
    frames.useHeaderBytes(4);
    const name = result.peerName;
    this.#peers.get(name)?.close('replaced by a new connection');
    const peer: DistPeer = new DistPeer({
      socket,
      frames,
      peer: result,
      self,
      handlers: this.#o.handlers,
      tickIntervalMs: this.#limits.tickIntervalMs,
      onClose: (reason) => {
        this.#sockets.delete(socket);
        if (this.#peers.get(name) === peer) this.#peers.delete(name);
        this.#event({ kind: 'disconnected', peer: name, reason });
      },
    });
    this.#peers.set(name, peer);
    this.#event({ kind: 'connected', peer: name });
  }
}
