/**
 * One live exchange with a real Erlang node: EPMD lookup, handshake with the pure state machine,
 * an RPC to `erlang:node()` through rex, and a wrong cookie. Sockets live here, in the test only.
 * Skipped without erl (install erlang-base); TRIAD_REQUIRE_SERVICES=1 makes that a failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeDistPayload, encodeDistFrame, parseControlMessage } from './control-message.js';
import { decodePort2Response, encodePortPlease2Request } from './epmd.js';
import { ErlangDistError } from './errors.js';
import { FrameDecoder, TICK_FRAME } from './frame-decoder.js';
import { HandshakeClient } from './handshake-client.js';
import { NodeIdentity } from './node-identity.js';
import { RexCallCodec } from './rex-call-codec.js';
import { matchRexReply, rexCallMessage } from './rex-rpc.js';
import { atom, type PidTerm, type Term } from './term.js';
import { erlOnPath } from './test-support/erl-capture.js';

const required = process.env['TRIAD_REQUIRE_SERVICES'] === '1';
const haveErl = erlOnPath();
const NODE = `edlive${process.pid}@127.0.0.1`;
const COOKIE = `c${process.pid}x`;

function epmdPort(alive: string): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const s = net.connect(4369, '127.0.0.1', () => s.write(encodePortPlease2Request(alive)));
    s.on('data', (c) => chunks.push(c));
    s.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    s.on('error', reject);
  });
}

async function waitForPort(alive: string): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const reply = await epmdPort(alive).catch(() => undefined);
    if (reply) {
      const r = decodePort2Response(reply);
      if (r.found) return r.port;
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`${alive} never registered with epmd`);
}

/**
 * Connects, handshakes, optionally runs one rex call; resolves with the reply or rejects with the
 * handshake error. `onReplyPayload` sees the raw payload of the reply frame.
 */
function connectAndCall(
  port: number,
  cookie: string,
  call?: { module: string; function: string },
  options: { codec?: (caller: PidTerm) => RexCallCodec; onReplyPayload?: (payload: Uint8Array) => void } = {},
): Promise<Term | undefined> {
  return new Promise((resolve, reject) => {
    const identity = new NodeIdentity(`edclient${process.pid}@127.0.0.1`, 0x12345678);
    const hs = new HandshakeClient({ name: identity.node, cookie, creation: identity.creation });
    const frames = new FrameDecoder({ headerBytes: 2 });
    const socket = net.connect(port, '127.0.0.1', () => socket.write(hs.start()));
    const ref = identity.newReference();
    let settled = false;
    const finish = (error: Error | undefined, value?: Term) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (error) reject(error);
      else resolve(value);
    };
    socket.on('data', (chunk) => {
      try {
        frames.push(chunk);
        for (let f = frames.pull(); f; f = frames.pull()) {
          if (hs.state !== 'connected') {
            if (f.type !== 'data') continue;
            const step = hs.receive(f.payload);
            for (const out of step.send) socket.write(out);
            if (step.result) {
              frames.useHeaderBytes(4);
              if (!call) return finish(undefined);
              const caller = identity.newPid();
              if (options.codec) {
                socket.write(options.codec(caller).encodeCall(ref, { ...call, args: [] }));
              } else {
                const { control, message } = rexCallMessage(caller, ref, { ...call, args: [] });
                socket.write(encodeDistFrame(control, message));
              }
            }
          } else if (f.type === 'tick') {
            socket.write(TICK_FRAME);
          } else {
            const msg = parseControlMessage(decodeDistPayload(f.payload));
            const reply = msg.op === 'send' ? matchRexReply(msg.message) : undefined;
            if (reply) {
              options.onReplyPayload?.(f.payload);
              return finish(undefined, reply.reply);
            }
          }
        }
      } catch (error) {
        finish(error as Error);
      }
    });
    socket.on('close', () => finish(hs.state === 'connected' ? new Error('closed') : hs.closedError()));
    socket.on('error', (error) => finish(hs.state === 'connected' ? error : hs.closedError()));
    setTimeout(() => finish(new Error('timeout')), 10_000);
  });
}

describe.skipIf(!haveErl && !required)('live Erlang node (skipped without erl: install erlang-base)', () => {
  let node: ChildProcess | undefined;
  let port = 0;

  beforeAll(async () => {
    if (!haveErl) throw new Error('erl is not on PATH but TRIAD_REQUIRE_SERVICES=1: install erlang-base');
    node = spawn(
      'erl',
      [
        '-name',
        NODE,
        '-setcookie',
        COOKIE,
        '-noshell',
        '-noinput',
        '-kernel',
        'inet_dist_use_interface',
        '{127,0,0,1}',
      ],
      { stdio: 'ignore', env: { ...process.env, ERL_EPMD_ADDRESS: '127.0.0.1', ERL_CRASH_DUMP_SECONDS: '0' } },
    );
    port = await waitForPort(NODE.split('@')[0]!);
  }, 20_000);

  afterAll(() => {
    if (node?.pid !== undefined && node.exitCode === null) process.kill(node.pid, 'SIGKILL');
  });

  it('handshakes with the cookie and gets erlang:node() through rex', async () => {
    const reply = await connectAndCall(port, COOKIE, { module: 'erlang', function: 'node' });
    expect(reply).toEqual(atom(NODE));
  });

  it("recognises OTP's reply on RexCallCodec's fast path, with the same reply as the generic decoders", async () => {
    let codec: RexCallCodec | undefined;
    let payload: Uint8Array | undefined;
    const reply = await connectAndCall(
      port,
      COOKIE,
      { module: 'erlang', function: 'node' },
      {
        codec: (caller) => (codec = new RexCallCodec(caller)),
        onReplyPayload: (p) => (payload = p),
      },
    );
    expect(reply).toEqual(atom(NODE));
    expect(codec!.decodeReply(payload!)?.reply).toEqual(atom(NODE));
  });

  it('sees a wrong cookie as ED_ERR_BAD_COOKIE (the node closes after our challenge reply)', async () => {
    const error = await connectAndCall(port, 'wrong').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ErlangDistError);
    expect((error as ErlangDistError).code).toBe('ED_ERR_BAD_COOKIE');
  });
});

if (!haveErl && !required) console.warn('live-node.test.ts: erl not found, live test skipped (install erlang-base)');
