import { ByteReader } from './byte-reader.js';
import { ByteWriter } from './byte-writer.js';
import { control, PASS_THROUGH } from './control-message.js';
import { Tag } from './etf-tags.js';
import type { RexCall } from './rex-rpc.js';
import { list, type PidTerm, type ReferenceTerm, type Term } from './term.js';
import { DEFAULT_DECODE_OPTIONS, readBareTerm, type DecodeOptions } from './term-decoder.js';
import { writeAtom, writeBareTerm, writeVersionedTerm } from './term-encoder.js';

/** Largest scratch writer kept between calls; a larger one (a huge argument) is dropped after use. */
const SCRATCH_KEEP_BYTES = 64 * 1024;
/**
 * One scratch writer for every codec: `encodeCall` is synchronous and copies its result out, so
 * sharing it saves a buffer per connection.
 */
let scratch = new ByteWriter(1024);

/** `{call, ` of the call tuple: the same for every caller. */
const CALL_TAIL: Uint8Array = (() => {
  const w = new ByteWriter(16);
  w.u8(Tag.SMALL_TUPLE);
  w.u8(5);
  writeAtom(w, 'call');
  return w.finish().slice();
})();

/**
 * The RPC traffic of one caller pid, encoded and decoded with cached bytes (the hot path of a
 * connection that makes tens of thousands of calls per second).
 *
 * - `encodeCall(ref, call)` writes, byte for byte, the frame `encodeDistFrame` makes of
 *   `rexCallMessage(caller, ref, call)`: everything up to the reference (`p`, the REG_SEND control
 *   tuple, `{'$gen_call', {Caller, `) is encoded once, and so is the head of references of the
 *   caller's node and creation.
 * - `decodeReply(payload)` recognises the common reply, a SEND to the caller carrying
 *   `{Ref, Reply}` with a 3-word reference of the caller's node and creation, by comparing the
 *   cached head bytes, and decodes only the reply term. Anything else (another control message,
 *   another destination, a compressed message, another reference shape) returns undefined: the
 *   generic path (`decodeDistPayload` + `parseControlMessage` + `matchRexReply`) then handles it,
 *   and gives the same answer for every payload the fast path accepts. It throws only
 *   `ErlangDistError`, and only when the reply term is malformed or followed by more bytes.
 */
export class RexCallCodec {
  readonly caller: PidTerm;
  /**
   * The caller's cached bytes, one allocation: `[0, #refAt)` the request head (`p`, REG_SEND to
   * rex, `{'$gen_call', {Caller, `), `[#refAt, #replyAt)` the head of our 3-word references,
   * `[#replyAt, end)` the reply head (`p`, SEND to the caller, `{`).
   */
  readonly #heads: Uint8Array;
  readonly #refAt: number;
  readonly #replyAt: number;
  readonly #decodeOptions: DecodeOptions;

  /** `caller` is the pid calls are made from (usually one of our node's, made by `NodeIdentity.newPid`). */
  constructor(caller: PidTerm, options: Partial<DecodeOptions> = {}) {
    this.caller = caller;
    const defaults = options.maxDepth === undefined && options.maxInflatedBytes === undefined;
    this.#decodeOptions = defaults ? DEFAULT_DECODE_OPTIONS : Object.freeze({ ...DEFAULT_DECODE_OPTIONS, ...options });
    const w = new ByteWriter();
    w.u8(PASS_THROUGH);
    writeVersionedTerm(w, control.regSend(caller, 'rex'));
    w.u8(Tag.VERSION);
    w.u8(Tag.SMALL_TUPLE);
    w.u8(3);
    writeAtom(w, '$gen_call');
    w.u8(Tag.SMALL_TUPLE);
    w.u8(2);
    writeBareTerm(w, caller);
    this.#refAt = w.length;
    w.u8(Tag.NEWER_REFERENCE);
    w.u16(3);
    writeAtom(w, caller.node);
    w.u32(caller.creation);
    this.#replyAt = w.length;
    w.u8(PASS_THROUGH);
    writeVersionedTerm(w, control.send(caller));
    w.u8(Tag.VERSION);
    w.u8(Tag.SMALL_TUPLE);
    w.u8(2);
    this.#heads = w.finish().slice();
  }

  /**
   * The whole frame (4-byte length included) of `{'$gen_call', {Caller, Ref}, {call, M, F, A, GL}}`
   * to `rex`, GL defaulting to `user`. Throws ErlangDistError ED_ERR_UNENCODABLE like `encodeTerm`.
   * The result is a fresh buffer the caller may keep (hand it to a socket).
   */
  encodeCall(ref: ReferenceTerm, call: RexCall): Uint8Array {
    const w = scratch;
    w.reset();
    w.u32(0);
    w.copy(this.#heads, 0, this.#refAt);
    if (ref.node === this.caller.node && ref.creation === this.caller.creation && isU32Triple(ref.ids)) {
      w.copy(this.#heads, this.#refAt, this.#replyAt);
      w.u32(ref.ids[0]);
      w.u32(ref.ids[1]);
      w.u32(ref.ids[2]);
    } else {
      writeBareTerm(w, ref);
    }
    w.bytes(CALL_TAIL);
    writeAtom(w, call.module);
    writeAtom(w, call.function);
    if (call.args.length === 0) w.u8(Tag.NIL);
    else writeBareTerm(w, list([...call.args]));
    if (call.groupLeader === undefined) writeAtom(w, 'user');
    else writeBareTerm(w, call.groupLeader);
    w.patchU32(0, w.length - 4);
    // A copy from Node's small-buffer pool: the scratch writer's memory is reused by the next call.
    const frame = Buffer.from(w.finish());
    if (w.length > SCRATCH_KEEP_BYTES) scratch = new ByteWriter(1024);
    return frame;
  }

  /**
   * `{ref, reply}` when `payload` (a non-tick frame without its length) is a SEND to the caller
   * with message `{Ref, Reply}`, Ref a 3-word reference of the caller's node and creation;
   * undefined for every other payload (use the generic decoders then). Throws ErlangDistError when
   * the head matches but the reply term is malformed or followed by trailing bytes.
   */
  decodeReply(payload: Uint8Array): { ref: ReferenceTerm; reply: Term } | undefined {
    const heads = this.#heads;
    const replyHeadLength = heads.length - this.#replyAt;
    const idsAt = replyHeadLength + this.#replyAt - this.#refAt;
    if (payload.length < idsAt + 13) return undefined; // 12 bytes of ids and at least a 1-byte reply
    for (let i = 0, h = this.#replyAt; h < heads.length; i++, h++) if (payload[i] !== heads[h]) return undefined;
    for (let i = replyHeadLength, h = this.#refAt; h < this.#replyAt; i++, h++)
      if (payload[i] !== heads[h]) return undefined;
    const reader = new ByteReader(payload);
    reader.offset = idsAt;
    const ids = [reader.u32(), reader.u32(), reader.u32()];
    // Depth 1: inside the message tuple, as the generic decoder counts it.
    const reply = readBareTerm(reader, this.#decodeOptions, 1);
    reader.end('the message');
    return { ref: { type: 'reference', node: this.caller.node, creation: this.caller.creation, ids }, reply };
  }
}

/** Whether `ids` are three 32-bit words, as a reference this codec writes in place has. */
function isU32Triple(ids: readonly number[]): ids is readonly [number, number, number] {
  return ids.length === 3 && ids.every(isU32);
}

function isU32(v: number): boolean {
  return Number.isInteger(v) && v >= 0 && v <= 0xffff_ffff;
}
