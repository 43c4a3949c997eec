import { createServer, type Server, type Socket } from 'node:net';
import {
  atom,
  challengeDigest,
  control,
  decodeDistPayload,
  encodeDistFrame,
  listElements,
  parseControlMessage,
  tuple,
  tupleOf,
  type Term,
  decodeChallengeReply,
  decodeSendName,
  encodeChallenge,
  encodeChallengeAck,
  encodeFrame,
  encodeStatus,
  FrameDecoder,
  HIDDEN_CLIENT_FLAGS,
  int,
  TICK_FRAME,
} from '@triad/erlang-dist';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionFailure, RpcTimeoutError } from './connection-failure.js';
import { NodeConnection } from './node-connection.js';
import { liveErl, startErlNode, uniqueAlive, type ErlNode } from './test-support/erl-node.js';

const LOCAL = `triad_nctest_${process.pid}@localhost`;

async function failureOf(promise: Promise<unknown>): Promise<ConnectionFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConnectionFailure);
  return error as ConnectionFailure;
}

describe.skipIf(!liveErl.available && !liveErl.required)(
  'NodeConnection against a real node (skipped without erl: install erlang-base)',
  () => {
    let node: ErlNode | undefined;
    let connection: NodeConnection | undefined;

    beforeAll(async () => {
      node = await startErlNode(uniqueAlive('nc'), 'cookie_nc', { long: true });
      connection = await NodeConnection.open({ node: node.name, cookie: node.cookie, localName: LOCAL });
    }, 15_000);

    afterAll(async () => {
      connection?.close();
      await node?.kill();
    });

    it('handshakes as a hidden node and gets erlang:node() through rex', async () => {
      expect(connection!.peerName).toBe(node!.name);
      expect(await connection!.rpc('erlang', 'node')).toEqual(atom(node!.name));
    });

    it('correlates 2000 calls in flight by reference', async () => {
      const n = 2000;
      const replies = await Promise.all(
        Array.from({ length: n }, (_, i) => connection!.rpc('erlang', 'abs', [int(-i)])),
      );
      expect(replies).toEqual(Array.from({ length: n }, (_, i) => int(i)));
      expect(connection!.inFlight).toBe(0);
    });

    it('rejects a call without reply in time with RpcTimeoutError and stays open', async () => {
      const error = await connection!.rpc('timer', 'sleep', [int(1000)], { timeoutMs: 100 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RpcTimeoutError);
      expect(connection!.isOpen).toBe(true);
    });

    it('tells a wrong cookie apart as badCookie', async () => {
      const failure = await failureOf(
        NodeConnection.open({ node: node!.name, cookie: 'not_the_cookie', localName: `x${LOCAL}` }),
      );
      expect(failure.kind).toBe('badCookie');
      expect(failure.message).not.toContain('not_the_cookie');
    });

    it('tells a node missing from EPMD apart as notRegistered', async () => {
      const failure = await failureOf(
        NodeConnection.open({ node: `${uniqueAlive('ghost')}@127.0.0.1`, cookie: 'c', localName: LOCAL }),
      );
      expect(failure.kind).toBe('notRegistered');
    });

    it('rejects pending calls and reports closedByUs when closed', async () => {
      const other = await NodeConnection.open({ node: node!.name, cookie: node!.cookie, localName: `y${LOCAL}` });
      const closes: string[] = [];
      other.onClose((f) => closes.push(f.kind));
      const pending = other.rpc('timer', 'sleep', [int(2000)]);
      other.close();
      expect((await failureOf(pending)).kind).toBe('closedByUs');
      expect(closes).toEqual(['closedByUs']);
    });
  },
);

/** A fake peer that completes the handshake with `cookie`, then runs `after` on the 4-byte stream. */
function fakePeer(
  cookie: string,
  after: (socket: Socket, received: FrameDecoder) => void,
): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    const frames = new FrameDecoder({ headerBytes: 2 });
    let step = 0;
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      frames.push(chunk);
      for (let f = frames.pull(); f; f = step < 2 ? frames.pull() : undefined) {
        if (f.type !== 'data') continue;
        if (step === 0) {
          decodeSendName(f.payload);
          socket.write(encodeFrame(encodeStatus('ok'), 2));
          socket.write(
            encodeFrame(
              encodeChallenge({ flags: HIDDEN_CLIENT_FLAGS, challenge: 42, creation: 7, name: 'fake@127.0.0.1' }),
              2,
            ),
          );
          step = 1;
        } else if (step === 1) {
          const reply = decodeChallengeReply(f.payload);
          socket.write(encodeFrame(encodeChallengeAck(challengeDigest(cookie, reply.challenge)), 2));
          step = 2;
          frames.useHeaderBytes(4);
          socket.removeAllListeners('data');
          socket.on('data', (c) => frames.push(c));
          after(socket, frames);
        }
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port })),
  );
}

/** Starts a fake peer running `after`, opens a connection to it, runs `use`, then stops the peer. */
async function withFakePeer(
  after: (socket: Socket, received: FrameDecoder) => void,
  use: (connection: NodeConnection) => Promise<void>,
): Promise<void> {
  const { server, port } = await fakePeer('fake_cookie', after);
  try {
    const connection = await NodeConnection.open({
      node: 'fake@127.0.0.1',
      cookie: 'fake_cookie',
      localName: LOCAL,
      distPort: port,
    });
    await use(connection);
  } finally {
    server.close();
  }
}

describe('NodeConnection against a fake peer', () => {
  it('answers a tick with a tick, and closes with kind protocol on a malformed frame without throwing', async () => {
    let tickAnswered = false;
    await withFakePeer(
      (socket, received) => {
        socket.write(TICK_FRAME);
        const poll = setInterval(() => {
          if (received.pull()?.type === 'tick') {
            tickAnswered = true;
            clearInterval(poll);
            socket.write(Buffer.from([0, 0, 0, 3, 112, 131, 255])); // 'p', version, unknown tag 255
          }
        }, 10);
        socket.on('close', () => clearInterval(poll));
      },
      async (connection) => {
        const failure = await new Promise<ConnectionFailure>((resolve) => connection.onClose(resolve));
        expect(tickAnswered).toBe(true);
        expect(failure.kind).toBe('protocol');
        expect(failure.code).toBe('ED_ERR_UNKNOWN_TAG');
        expect(connection.isOpen).toBe(false);
      },
    );
  });
});

/** A `'$gen_call'` request to rex as the fake peer reads it. */
interface RexRequest {
  readonly from: Term;
  readonly ref: Term;
  readonly fn: string;
  readonly args: readonly Term[];
}

/** Calls `onRequests` with the rex requests of each chunk the peer receives (ticks skipped). */
function readRexRequests(socket: Socket, received: FrameDecoder, onRequests: (requests: RexRequest[]) => void): void {
  socket.on('data', () => {
    const requests: RexRequest[] = [];
    for (let f = received.pull(); f; f = received.pull()) {
      if (f.type !== 'data') continue;
      const msg = parseControlMessage(decodeDistPayload(f.payload));
      if (msg.op !== 'regSend' || msg.toName !== 'rex') continue;
      const [, fromRef, call] = tupleOf(msg.message, 3)!;
      const [from, ref] = tupleOf(fromRef, 2)!;
      const [, , fn, args] = tupleOf(call, 5)!;
      requests.push({
        from: from!,
        ref: ref!,
        fn: fn?.type === 'atom' ? fn.name : '',
        args: (args && listElements(args)) ?? [],
      });
    }
    if (requests.length > 0) onRequests(requests);
  });
}

/** The frame answering `request` with `reply`, as rex sends it: SEND to the caller, `{Ref, Reply}`. */
function replyFrame(request: RexRequest, reply: Term): Uint8Array {
  return encodeDistFrame(control.send(request.from as Parameters<typeof control.send>[0]), tuple(request.ref, reply));
}

describe('NodeConnection RPC against a fake rex', () => {
  it('matches replies sent in reverse order to 300 calls made in one turn of the event loop', async () => {
    const n = 300;
    await withFakePeer(
      (socket, received) => {
        const seen: RexRequest[] = [];
        readRexRequests(socket, received, (requests) => {
          seen.push(...requests);
          if (seen.length < n) return;
          socket.write(Buffer.concat(seen.reverse().map((r) => replyFrame(r, tuple(atom('echo'), ...r.args)))));
        });
      },
      async (connection) => {
        const replies = await Promise.all(Array.from({ length: n }, (_, i) => connection.rpc('m', 'f', [int(i)])));
        expect(replies).toEqual(Array.from({ length: n }, (_, i) => tuple(atom('echo'), int(i))));
        expect(connection.inFlight).toBe(0);
        connection.close();
      },
    );
  });

  it('times out a short call while a longer one made before it still gets its late reply', async () => {
    await withFakePeer(
      (socket, received) => {
        readRexRequests(socket, received, (requests) => {
          // Answer everything (the short call's reply arrives after its timeout and must be dropped).
          setTimeout(() => {
            for (const r of requests) socket.write(replyFrame(r, atom(r.fn)));
          }, 150);
        });
      },
      async (connection) => {
        const long = connection.rpc('m', 'long', [], { timeoutMs: 5_000 });
        const short = connection.rpc('m', 'short', [], { timeoutMs: 30 });
        const shortError = await short.catch((e: unknown) => e);
        expect(shortError).toBeInstanceOf(RpcTimeoutError);
        expect((shortError as RpcTimeoutError).call).toBe('m:short/0');
        expect(await long).toEqual(atom('long'));
        // The late reply to the short call was dropped; the connection still works.
        expect(connection.inFlight).toBe(0);
        expect(await connection.rpc('m', 'again')).toEqual(atom('again'));
        expect(connection.isOpen).toBe(true);
        connection.close();
      },
    );
  });

  it('keeps waiting for a call whose timeout is beyond what setTimeout can hold (2^32 ms)', async () => {
    await withFakePeer(
      (socket, received) => {
        readRexRequests(socket, received, (requests) => {
          setTimeout(() => {
            for (const r of requests) socket.write(replyFrame(r, atom('late')));
          }, 60);
        });
      },
      async (connection) => {
        expect(await connection.rpc('m', 'f', [], { timeoutMs: 2 ** 32 })).toEqual(atom('late'));
        connection.close();
      },
    );
  });

  it('closes with kind protocol and rejects pending calls when a reply to our pid holds a malformed term', async () => {
    await withFakePeer(
      (socket, received) => {
        readRexRequests(socket, received, (requests) => {
          const good = replyFrame(requests[0]!, atom('ok'));
          // Same head (SEND to us, {Ref, ...}) but the reply term has the unknown tag 255.
          // Drop the 4 bytes of `ok`.
          const bad = Buffer.concat([good.subarray(0, good.length - 4), Buffer.from([255])]);
          bad.writeUInt32BE(bad.length - 4, 0);
          socket.write(bad);
        });
      },
      async (connection) => {
        const [first, second] = [connection.rpc('m', 'f'), connection.rpc('m', 'g')];
        const failures = await Promise.all([failureOf(first), failureOf(second)]);
        expect(failures.map((f) => [f.kind, f.code])).toEqual([
          ['protocol', 'ED_ERR_UNKNOWN_TAG'],
          ['protocol', 'ED_ERR_UNKNOWN_TAG'],
        ]);
        expect(connection.isOpen).toBe(false);
      },
    );
  });
});

if (!liveErl.available && !liveErl.required)
  console.warn('node-connection.test.ts: erl not found, live tests skipped (install erlang-base)');
