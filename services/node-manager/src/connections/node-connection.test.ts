import { createServer, type Server, type Socket } from 'node:net';
import {
  atom,
  challengeDigest,
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
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ConnectionFailure);
  return error as ConnectionFailure;
}

describe.skipIf(!liveErl.available && !liveErl.required)('NodeConnection against a real node (skipped without erl: install erlang-base)', () => {
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
    const replies = await Promise.all(Array.from({ length: n }, (_, i) => connection!.rpc('erlang', 'abs', [int(-i)])));
    expect(replies).toEqual(Array.from({ length: n }, (_, i) => int(i)));
    expect(connection!.inFlight).toBe(0);
  });

  it('rejects a call without reply in time with RpcTimeoutError and stays open', async () => {
    const error = await connection!.rpc('timer', 'sleep', [int(1000)], { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcTimeoutError);
    expect(connection!.isOpen).toBe(true);
  });

  it('tells a wrong cookie apart as badCookie', async () => {
    const failure = await failureOf(NodeConnection.open({ node: node!.name, cookie: 'not_the_cookie', localName: `x${LOCAL}` }));
    expect(failure.kind).toBe('badCookie');
    expect(failure.message).not.toContain('not_the_cookie');
  });

  it('tells a node missing from EPMD apart as notRegistered', async () => {
    const failure = await failureOf(NodeConnection.open({ node: `${uniqueAlive('ghost')}@127.0.0.1`, cookie: 'c', localName: LOCAL }));
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
});

/** A fake peer that completes the handshake with `cookie`, then runs `after` on the 4-byte stream. */
function fakePeer(cookie: string, after: (socket: Socket, received: FrameDecoder) => void): Promise<{ server: Server; port: number }> {
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
          socket.write(encodeFrame(encodeChallenge({ flags: HIDDEN_CLIENT_FLAGS, challenge: 42, creation: 7, name: 'fake@127.0.0.1' }), 2));
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
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port })));
}

describe('NodeConnection against a fake peer', () => {
  it('answers a tick with a tick, and closes with kind protocol on a malformed frame without throwing', async () => {
    let tickAnswered = false;
    const { server, port } = await fakePeer('fake_cookie', (socket, received) => {
      socket.write(TICK_FRAME);
      const poll = setInterval(() => {
        if (received.pull()?.type === 'tick') {
          tickAnswered = true;
          clearInterval(poll);
          socket.write(Buffer.from([0, 0, 0, 3, 112, 131, 255])); // 'p', version, unknown tag 255
        }
      }, 10);
      socket.on('close', () => clearInterval(poll));
    });
    try {
      const connection = await NodeConnection.open({ node: 'fake@127.0.0.1', cookie: 'fake_cookie', localName: LOCAL, distPort: port });
      const failure = await new Promise<ConnectionFailure>((resolve) => connection.onClose(resolve));
      expect(tickAnswered).toBe(true);
      expect(failure.kind).toBe('protocol');
      expect(failure.code).toBe('ED_ERR_UNKNOWN_TAG');
      expect(connection.isOpen).toBe(false);
    } finally {
      server.close();
    }
  });
});

if (!liveErl.available && !liveErl.required) console.warn('node-connection.test.ts: erl not found, live tests skipped (install erlang-base)');
