/**
 * Throughput of the pure Erlang distribution codec (issue 5) on the messages of one RPC:
 * - decode: a SEND frame carrying a typical rex reply `{Ref, erlang:memory()}` (9-entry proplist,
 *   integers above 2^31 included): pass-through payload -> control + message -> reply matched;
 * - decode of a larger reply (`application:which_applications()`-like list of 30 tuples with strings);
 * - encode: the REG_SEND frame of a `'$gen_call'` request to rex, and the memory reply term;
 * - the same request and the reply `{Ref, 'node@host'}` of `erlang:node()` through `RexCallCodec`
 *   (cached bytes, what `NodeConnection` uses), beside the generic encoder and decoders.
 * Prints operations per second and MB/s; asserts nothing. Run: `npm run bench -- erlang-dist` (about 10 s).
 */
import {
  atom,
  control,
  decodeDistPayload,
  encodeDistFrame,
  encodeTerm,
  int,
  list,
  matchRexReply,
  NodeIdentity,
  parseControlMessage,
  RexCallCodec,
  rexCallMessage,
  string,
  tuple,
  type Term,
} from '@triad/erlang-dist';
import { bestRate } from './bench-utils.js';

const MEASURE_MS = Number(process.env['BENCH_MS'] ?? 1_000);
const ROUNDS = 3;

const us = new NodeIdentity('triad@127.0.0.1', 0x12345678);
const caller = us.newPid();
const ref = us.newReference();

const memory = list(
  ['total', 'processes', 'processes_used', 'system', 'atom', 'atom_used', 'binary', 'code', 'ets'].map((k, i) =>
    tuple(atom(k), int(i === 0 ? 5_368_709_120 : 1_000_000 * (i + 3))),
  ),
);
const apps = list(
  Array.from({ length: 30 }, (_, i) =>
    tuple(atom(`app_${i}`), string(`Application number ${i} CXC 138 ${i}`), string(`${i}.2.${i}`)),
  ),
);

function payloadOf(frame: Uint8Array): Uint8Array {
  return frame.subarray(4);
}
const memoryFrame = payloadOf(encodeDistFrame(control.send(caller), tuple(ref, memory)));
const appsFrame = payloadOf(encodeDistFrame(control.send(caller), tuple(ref, apps)));

function rate(label: string, bytesPerOp: number, op: () => unknown): void {
  let sink = 0;
  const batch = (n: number) => {
    for (let i = 0; i < n; i++) if (op() !== undefined) sink++;
  };
  const best = bestRate(batch, { warmup: 20_000, chunk: 5_000, rounds: ROUNDS, measureMs: MEASURE_MS });
  if (sink < 0) console.log(sink);
  const mbps = (best * bytesPerOp) / 1e6;
  console.log(
    `${label.padEnd(52)} ${(best / 1e3).toFixed(0).padStart(7)} k/s  ` +
      `${mbps.toFixed(1).padStart(7)} MB/s  (${bytesPerOp} B)`,
  );
}

function decodeReply(payload: Uint8Array): Term | undefined {
  const msg = parseControlMessage(decodeDistPayload(payload));
  return msg.op === 'send' ? matchRexReply(msg.message)?.reply : undefined;
}

const request = rexCallMessage(caller, ref, { module: 'erlang', function: 'memory', args: [] });
const requestBytes = encodeDistFrame(request.control, request.message).length;

console.log(`node ${process.version}, best of ${ROUNDS} x ${MEASURE_MS} ms`);
rate('decode SEND {Ref, erlang:memory()} frame', memoryFrame.length, () => decodeReply(memoryFrame));
rate('decode SEND {Ref, which_applications (30)} frame', appsFrame.length, () => decodeReply(appsFrame));
rate("encode REG_SEND rex '$gen_call' request frame", requestBytes, () => {
  const r = rexCallMessage(caller, us.newReference(), { module: 'erlang', function: 'memory', args: [] });
  return encodeDistFrame(r.control, r.message);
});
rate('encode {Ref, erlang:memory()} term', memoryFrame.length, () => encodeTerm(tuple(ref, memory)));

const codec = new RexCallCodec(caller);
const nodeRequestBytes = codec.encodeCall(ref, { module: 'erlang', function: 'node', args: [] }).length;
const nodeReplyFrame = payloadOf(encodeDistFrame(control.send(caller), tuple(ref, atom('bench_target_1@localhost'))));
rate("encode '$gen_call' erlang:node() frame, generic", nodeRequestBytes, () => {
  const r = rexCallMessage(caller, us.newReference(), { module: 'erlang', function: 'node', args: [] });
  return encodeDistFrame(r.control, r.message);
});
rate("encode '$gen_call' erlang:node() frame, RexCallCodec", nodeRequestBytes, () =>
  codec.encodeCall(us.newReference(), { module: 'erlang', function: 'node', args: [] }),
);
rate('decode {Ref, node()} reply frame, generic', nodeReplyFrame.length, () => decodeReply(nodeReplyFrame));
rate(
  'decode {Ref, node()} reply frame, RexCallCodec',
  nodeReplyFrame.length,
  () => codec.decodeReply(nodeReplyFrame)?.reply,
);
