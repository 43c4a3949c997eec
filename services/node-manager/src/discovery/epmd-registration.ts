import { Socket } from 'node:net';
import { decodeAlive2Response, encodeAlive2Request, EPMD_DEFAULT_PORT, EpmdTag, NodeType } from '@triad/erlang-dist';

/** A name registered with the local EPMD; it stays registered while the connection is open. */
export interface EpmdRegistration {
  /** The creation EPMD gave this incarnation of the name (goes into the handshake and our pids). */
  readonly creation: number;
  /** Closes the connection, which unregisters the name. Idempotent. */
  close(): void;
}

/** Options of `registerWithEpmd`. */
export interface EpmdRegistrationOptions {
  /** The alive part of our node name (`wombat` of `wombat@host`). */
  readonly alive: string;
  /** Our distribution port, the one peers are told. */
  readonly port: number;
  /** EPMD's port on this machine; default 4369. */
  readonly epmdPort?: number;
  /** Budget for connect + reply; default 5000 ms. */
  readonly timeoutMs?: number;
  /** Called once when EPMD closes the connection before `close()` (the name is then no longer found). */
  readonly onLost?: () => void;
}

/**
 * Registers `alive` at `port` with the EPMD of this machine (ALIVE2_REQ over a connection kept open,
 * as EPMD unregisters a name when its connection closes), as a normal (visible) node speaking
 * distribution version 6. Rejects with an Error saying what to do when EPMD does not answer or
 * refuses the name (another node holds it).
 */
export function registerWithEpmd(options: EpmdRegistrationOptions): Promise<EpmdRegistration> {
  const epmdPort = options.epmdPort ?? EPMD_DEFAULT_PORT;
  const timeoutMs = options.timeoutMs ?? 5_000; // 5 s
  const socket = new Socket();
  return new Promise<EpmdRegistration>((resolve, reject) => {
    let settled = false;
    let closing = false;
    let received = Buffer.alloc(0);
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      // A refused or failed registration was never ours to lose: no `onLost` for its close.
      closing = true;
      clearTimeout(timer);
      socket.destroy();
      reject(new Error(message));
    };
    const timer = setTimeout(
      () => fail(`EPMD on 127.0.0.1:${epmdPort} did not answer the registration within ${timeoutMs} ms`),
      timeoutMs,
    );
    socket.on('error', (error: NodeJS.ErrnoException) =>
      fail(
        `cannot register ${options.alive} with EPMD on 127.0.0.1:${epmdPort} (${error.code ?? error.message}): ` +
          'start it with `epmd -daemon` (any `erl -name` starts it too)',
      ),
    );
    socket.on('close', () => {
      if (!settled) fail(`EPMD on 127.0.0.1:${epmdPort} closed the connection without a reply`);
      else if (!closing) options.onLost?.();
    });
    socket.on('data', (chunk: Buffer) => {
      if (settled) return; // EPMD sends nothing after the reply
      received = Buffer.concat([received, chunk]);
      const need = received[0] === EpmdTag.ALIVE2_RESP ? 4 : 6;
      if (received.length < need) return;
      try {
        const { result, creation } = decodeAlive2Response(received.subarray(0, need));
        if (result !== 0) {
          fail(`EPMD refused the name ${options.alive} (result ${result}): another node is registered under it`);
          return;
        }
        settled = true;
        clearTimeout(timer);
        resolve({
          creation: creation === 0 ? 1 : creation,
          close: () => {
            closing = true;
            socket.destroy();
          },
        });
      } catch {
        fail(`EPMD on 127.0.0.1:${epmdPort} sent a malformed registration reply`);
      }
    });
    socket.connect(epmdPort, '127.0.0.1', () => {
      socket.write(encodeAlive2Request({ port: options.port, alive: options.alive, nodeType: NodeType.NORMAL }));
    });
  });
}
