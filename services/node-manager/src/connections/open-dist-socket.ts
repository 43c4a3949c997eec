import { Socket, type ConnectOpts, type SocketConstructorOpts } from 'node:net';
import {
  ErlangDistError,
  FrameDecoder,
  HandshakeClient,
  NodeIdentity,
  randomCreation,
  type HandshakeResult,
} from '@triad/erlang-dist';
import { ConnectionFailure, type ConnectionFailureKind } from './connection-failure.js';
import { lookupNodePort, resolveHost } from './epmd-client.js';

/** What `openDistSocket` needs. */
export interface DistSocketOptions {
  /** The peer, `alive@host`. */
  readonly node: string;
  /** The peer's cookie: goes into the challenge digest only, never into messages or logs. */
  readonly cookie: string;
  /** Our hidden node's name, `alive@host` (any host: the accepting side does not check the name type). */
  readonly localName: string;
  /** Budget for resolve + EPMD + TCP connect + handshake. Default 5000 ms. */
  readonly connectTimeoutMs?: number;
  /** EPMD's port; default 4369. */
  readonly epmdPort?: number;
  /** Connect to this distribution port and skip EPMD (nodes with a fixed port, tests). */
  readonly distPort?: number;
}

/** An open, handshaken distribution socket, ready for 4-byte frames. */
export interface DistSocket {
  /** Never emits 'data': incoming bytes go to the receiver set with `receive`. */
  readonly socket: Socket;
  /** Already switched to 4-byte headers; may hold bytes that arrived with the handshake's last frame. */
  readonly frames: FrameDecoder;
  /** Our identity for this connection (its creation went into send_name). */
  readonly identity: NodeIdentity;
  readonly peer: HandshakeResult;
  /**
   * Sends every later read to `receiver`. Until it is called, bytes go into `frames`. The bytes
   * are a view of a read buffer shared by all distribution sockets of the process (no allocation
   * per read): `receiver` must be done with them when it returns, e.g. push them into `frames`,
   * pull every frame, then `frames.detach()`.
   */
  receive(receiver: (bytes: Uint8Array) => void): void;
}

/** Default connect budget. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000; // 5 s

/** Size of the read buffer all distribution sockets share: the most one read returns. */
const READ_BUFFER_BYTES = 64 * 1024; // 64 KiB, what Node allocates per read otherwise
let sharedReadBuffer: Buffer | undefined;

/**
 * A socket whose reads land in one buffer shared by every distribution socket (reads run one at
 * a time on the event loop, and every receiver copies what it keeps), handed to `current()`.
 */
function sharedBufferSocket(current: () => (bytes: Uint8Array) => void): Socket {
  const buffer = (sharedReadBuffer ??= Buffer.allocUnsafe(READ_BUFFER_BYTES));
  // Node reads `onread` in the constructor; @types/node lists it with the connect options only.
  const options: SocketConstructorOpts & ConnectOpts = {
    onread: {
      buffer,
      callback: (n: number): boolean => {
        current()(buffer.subarray(0, n));
        return true; // keep reading
      },
    },
  };
  return new Socket(options);
}

const ALIVE = /^[0-9A-Za-z_-]+$/;

/** Splits `alive@host` at the first `@` as net_kernel does; undefined when either part is invalid. */
export function splitNode(node: string): { alive: string; host: string } | undefined {
  const at = node.indexOf('@');
  if (at <= 0) return undefined;
  const alive = node.slice(0, at);
  const host = node.slice(at + 1);
  return ALIVE.test(alive) && /^[!-\u00ff]+$/.test(host) ? { alive, host } : undefined;
}

/**
 * Resolves the host, asks EPMD for the port (unless `distPort`), connects and runs the version-6
 * handshake as a hidden node. Rejects with a `ConnectionFailure` whose kind tells the cases apart
 * (see `ConnectionFailureKind`); a wrong cookie is `badCookie`. Never leaves a socket open on failure.
 */
export async function openDistSocket(options: DistSocketOptions): Promise<DistSocket> {
  const { node } = options;
  const parts = splitNode(node);
  if (!parts) throw new ConnectionFailure('badNodeName', node, 'not of the form alive@host');
  const budget = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const deadline = Date.now() + budget;
  let address: string;
  let port: number;
  if (options.distPort !== undefined) {
    const resolved = await resolveHost(parts.host, budget);
    if (resolved.kind !== 'resolved')
      throw new ConnectionFailure('hostUnresolvable', node, `host ${parts.host} does not resolve`, {
        code: resolved.code,
      });
    address = resolved.address;
    port = options.distPort;
  } else {
    const found = await lookupNodePort(parts.host, parts.alive, {
      timeoutMs: budget,
      ...(options.epmdPort === undefined ? {} : { epmdPort: options.epmdPort }),
    });
    switch (found.kind) {
      case 'hostUnresolvable':
        throw new ConnectionFailure('hostUnresolvable', node, `host ${parts.host} does not resolve`, {
          code: found.code,
        });
      case 'epmdUnreachable':
        throw new ConnectionFailure('epmdUnreachable', node, `EPMD on ${parts.host} does not answer`, {
          code: found.code,
        });
      case 'notRegistered':
        throw new ConnectionFailure(
          'notRegistered',
          node,
          `${parts.alive} is not registered with EPMD on ${parts.host}`,
        );
      case 'port':
        address = found.address;
        port = found.port;
    }
  }
  return handshake(options, address, port, Math.max(1, deadline - Date.now()));
}

function handshake(options: DistSocketOptions, address: string, port: number, timeoutMs: number): Promise<DistSocket> {
  const { node } = options;
  const identity = new NodeIdentity(options.localName, randomCreation());
  // takeOverAlive: after a lost connection the peer may not have noticed yet; our name is ours.
  const hs = new HandshakeClient({
    name: identity.node,
    cookie: options.cookie,
    creation: identity.creation,
    takeOverAlive: true,
  });
  const frames = new FrameDecoder({ headerBytes: 2 });
  // Reads go to the handshake (set below, before the socket connects), then into `frames` until
  // the connection installs its own receiver with `receive`.
  let receiver: (bytes: Uint8Array) => void;
  const socket = sharedBufferSocket(() => receiver);
  const keepInFrames = (bytes: Uint8Array): void => {
    frames.push(bytes);
    frames.detach();
  };
  let connected = false;
  return new Promise<DistSocket>((resolve, reject) => {
    let settled = false;
    const fail = (kind: ConnectionFailureKind, detail: string, code?: string, cause?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.destroy();
      reject(new ConnectionFailure(kind, node, detail, { ...(code === undefined ? {} : { code }), cause }));
    };
    const onClosed = () => {
      if (!connected) return;
      const error = hs.closedError();
      if (error.code === 'ED_ERR_BAD_COOKIE')
        fail('badCookie', 'the node closed the connection after our challenge reply: wrong cookie', error.code);
      else fail('peerClosed', `the node closed the connection during the handshake (${hs.state})`, error.code);
    };
    const timer = setTimeout(
      () => fail('timeout', `no handshake within ${timeoutMs} ms (${connected ? hs.state : 'connecting'})`, 'timeout'),
      timeoutMs,
    );
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected) fail('distUnreachable', `no TCP connection to ${address}:${port}`, error.code ?? 'ECONNREFUSED');
      else onClosed();
    });
    socket.on('close', onClosed);
    receiver = (chunk) => {
      try {
        frames.push(chunk);
        for (let f = frames.pull(); f && !settled; f = frames.pull()) {
          if (f.type !== 'data') continue;
          const step = hs.receive(f.payload);
          for (const out of step.send) socket.write(out);
          if (step.result) {
            settled = true;
            clearTimeout(timer);
            frames.useHeaderBytes(4);
            frames.detach(); // frames that came with the last handshake message
            socket.removeAllListeners();
            receiver = keepInFrames;
            resolve({ socket, frames, identity, peer: step.result, receive: (next) => (receiver = next) });
            return;
          }
        }
        frames.detach();
      } catch (error) {
        if (error instanceof ErlangDistError && error.code === 'ED_ERR_HANDSHAKE_REFUSED') {
          fail('refused', `handshake refused (${String(error.details['status'])})`, error.code, error);
        } else {
          const code = error instanceof ErlangDistError ? error.code : 'unexpected';
          fail('protocol', `malformed handshake from the node (${code})`, code, error);
        }
      }
    };
    socket.setNoDelay(true);
    socket.connect(port, address, () => {
      connected = true;
      socket.write(hs.start());
    });
  });
}
