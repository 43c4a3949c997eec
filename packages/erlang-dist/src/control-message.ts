import { ByteReader } from './byte-reader.js';
import { ByteWriter } from './byte-writer.js';
import { ErlangDistError } from './errors.js';
import { atom, int, tuple, type AtomTerm, type PidTerm, type ReferenceTerm, type Term } from './term.js';
import { readVersionedTerm, type DecodeOptions } from './term-decoder.js';
import { writeVersionedTerm } from './term-encoder.js';

/** The pass-through prefix byte (112 'p') of messages without a distribution header. */
export const PASS_THROUGH = 112;

/** Control message opcodes (reference §4). */
export const ControlOp = Object.freeze({
  LINK: 1,
  SEND: 2,
  EXIT: 3,
  UNLINK: 4,
  REG_SEND: 6,
  GROUP_LEADER: 7,
  EXIT2: 8,
  SEND_TT: 12,
  EXIT_TT: 13,
  REG_SEND_TT: 16,
  EXIT2_TT: 18,
  MONITOR_P: 19,
  DEMONITOR_P: 20,
  MONITOR_P_EXIT: 21,
  SEND_SENDER: 22,
  SEND_SENDER_TT: 23,
  PAYLOAD_EXIT: 24,
  PAYLOAD_EXIT_TT: 25,
  PAYLOAD_EXIT2: 26,
  PAYLOAD_EXIT2_TT: 27,
  PAYLOAD_MONITOR_P_EXIT: 28,
  ALIAS_SEND: 33,
  UNLINK_ID: 35,
  UNLINK_ID_ACK: 36,
} as const);

/** A decoded pass-through message: the control tuple and, for the send family, the message. */
export interface DistMessage {
  readonly control: Term;
  readonly message?: Term;
}

/**
 * A whole post-handshake frame for a pass-through message: 4-byte length, `p`, `131`+control and,
 * when given, `131`+message. Throws ED_ERR_UNENCODABLE like `encodeTerm`.
 */
export function encodeDistFrame(control: Term, message?: Term): Uint8Array {
  const w = new ByteWriter(256);
  w.u32(0);
  w.u8(PASS_THROUGH);
  writeVersionedTerm(w, control);
  if (message !== undefined) writeVersionedTerm(w, message);
  w.patchU32(0, w.length - 4);
  return w.finish();
}

/**
 * Decodes the payload of a non-tick frame (without its length). Throws ErlangDistError:
 * ED_ERR_UNKNOWN_TAG when the payload is not pass-through (a distribution header, which we never
 * negotiate), term errors otherwise, ED_ERR_TRAILING_BYTES after the second term.
 */
export function decodeDistPayload(payload: Uint8Array, options: Partial<DecodeOptions> = {}): DistMessage {
  const r = new ByteReader(payload);
  const first = r.u8('pass-through byte');
  if (first !== PASS_THROUGH) {
    throw new ErlangDistError('ED_ERR_UNKNOWN_TAG', {
      offset: 0,
      detail:
        first === 131
          ? 'distribution header (DFLAG_DIST_HDR_ATOM_CACHE is never negotiated)'
          : `expected 'p' (112), got ${first}`,
      details: { tag: first },
    });
  }
  const control = readVersionedTerm(r, options);
  if (r.remaining === 0) return { control };
  const message = readVersionedTerm(r, options);
  r.end('the message');
  return { control, message };
}

/** Control messages we interpret; everything else is `unknown` (safe to ignore). Trace tokens are dropped. */
export type ControlMessage =
  | { readonly op: 'send'; readonly to: Term; readonly message: Term }
  | { readonly op: 'regSend'; readonly from: Term; readonly toName: string; readonly message: Term }
  | { readonly op: 'sendSender'; readonly from: Term; readonly to: Term; readonly message: Term }
  | { readonly op: 'aliasSend'; readonly from: Term; readonly alias: Term; readonly message: Term }
  | { readonly op: 'link' | 'unlink'; readonly from: Term; readonly to: Term }
  | { readonly op: 'exit' | 'exit2'; readonly from: Term; readonly to: Term; readonly reason: Term }
  | { readonly op: 'monitor' | 'demonitor'; readonly from: Term; readonly to: Term; readonly ref: Term }
  | { readonly op: 'monitorExit'; readonly from: Term; readonly to: Term; readonly ref: Term; readonly reason: Term }
  | { readonly op: 'unlinkId' | 'unlinkIdAck'; readonly id: Term; readonly from: Term; readonly to: Term }
  | { readonly op: 'unknown'; readonly opcode: number | undefined; readonly control: Term; readonly message?: Term };

/**
 * Interprets a decoded pass-through message. Throws ED_ERR_BAD_CONTROL when a known opcode comes
 * with the wrong arity, a missing message, or a non-atom registered name.
 */
export function parseControlMessage({ control, message }: DistMessage): ControlMessage {
  const e: readonly Term[] = control.type === 'tuple' ? control.elements : [];
  const head = e[0];
  const opcode = head?.type === 'integer' && typeof head.value === 'number' ? head.value : undefined;
  switch (opcode) {
    case ControlOp.SEND:
      if (!hasArity(e, 3) || message === undefined) throw badShape(e, opcode, 3, true);
      return { op: 'send', to: e[2], message };
    case ControlOp.SEND_TT:
      if (!hasArity(e, 4) || message === undefined) throw badShape(e, opcode, 4, true);
      return { op: 'send', to: e[2], message };
    case ControlOp.REG_SEND:
    case ControlOp.REG_SEND_TT: {
      const arity = opcode === ControlOp.REG_SEND ? 4 : 5;
      if (!hasArity(e, arity) || message === undefined) throw badShape(e, opcode, arity, true);
      const name = e[3];
      if (name.type !== 'atom')
        throw new ErlangDistError('ED_ERR_BAD_CONTROL', {
          detail: 'REG_SEND name is not an atom',
          details: { opcode },
        });
      return { op: 'regSend', from: e[1], toName: name.name, message };
    }
    case ControlOp.SEND_SENDER:
      if (!hasArity(e, 3) || message === undefined) throw badShape(e, opcode, 3, true);
      return { op: 'sendSender', from: e[1], to: e[2], message };
    case ControlOp.SEND_SENDER_TT:
      if (!hasArity(e, 4) || message === undefined) throw badShape(e, opcode, 4, true);
      return { op: 'sendSender', from: e[1], to: e[2], message };
    case ControlOp.ALIAS_SEND:
      if (!hasArity(e, 3) || message === undefined) throw badShape(e, opcode, 3, true);
      return { op: 'aliasSend', from: e[1], alias: e[2], message };
    case ControlOp.LINK:
      if (!hasArity(e, 3)) throw badShape(e, opcode, 3, false);
      return { op: 'link', from: e[1], to: e[2] };
    case ControlOp.UNLINK:
      if (!hasArity(e, 3)) throw badShape(e, opcode, 3, false);
      return { op: 'unlink', from: e[1], to: e[2] };
    case ControlOp.EXIT:
      if (!hasArity(e, 4)) throw badShape(e, opcode, 4, false);
      return { op: 'exit', from: e[1], to: e[2], reason: e[3] };
    case ControlOp.EXIT_TT:
      if (!hasArity(e, 5)) throw badShape(e, opcode, 5, false);
      return { op: 'exit', from: e[1], to: e[2], reason: e[4] };
    case ControlOp.EXIT2:
      if (!hasArity(e, 4)) throw badShape(e, opcode, 4, false);
      return { op: 'exit2', from: e[1], to: e[2], reason: e[3] };
    case ControlOp.EXIT2_TT:
      if (!hasArity(e, 5)) throw badShape(e, opcode, 5, false);
      return { op: 'exit2', from: e[1], to: e[2], reason: e[4] };
    case ControlOp.PAYLOAD_EXIT:
    case ControlOp.PAYLOAD_EXIT_TT: {
      const arity = opcode === ControlOp.PAYLOAD_EXIT ? 3 : 4;
      if (!hasArity(e, arity) || message === undefined) throw badShape(e, opcode, arity, true);
      return { op: 'exit', from: e[1], to: e[2], reason: message };
    }
    case ControlOp.PAYLOAD_EXIT2:
    case ControlOp.PAYLOAD_EXIT2_TT: {
      const arity = opcode === ControlOp.PAYLOAD_EXIT2 ? 3 : 4;
      if (!hasArity(e, arity) || message === undefined) throw badShape(e, opcode, arity, true);
      return { op: 'exit2', from: e[1], to: e[2], reason: message };
    }
    case ControlOp.MONITOR_P:
      if (!hasArity(e, 4)) throw badShape(e, opcode, 4, false);
      return { op: 'monitor', from: e[1], to: e[2], ref: e[3] };
    case ControlOp.DEMONITOR_P:
      if (!hasArity(e, 4)) throw badShape(e, opcode, 4, false);
      return { op: 'demonitor', from: e[1], to: e[2], ref: e[3] };
    case ControlOp.MONITOR_P_EXIT:
      if (!hasArity(e, 5)) throw badShape(e, opcode, 5, false);
      return { op: 'monitorExit', from: e[1], to: e[2], ref: e[3], reason: e[4] };
    case ControlOp.PAYLOAD_MONITOR_P_EXIT:
      if (!hasArity(e, 4) || message === undefined) throw badShape(e, opcode, 4, true);
      return { op: 'monitorExit', from: e[1], to: e[2], ref: e[3], reason: message };
    case ControlOp.UNLINK_ID:
      if (!hasArity(e, 4)) throw badShape(e, opcode, 4, false);
      return { op: 'unlinkId', id: e[1], from: e[2], to: e[3] };
    case ControlOp.UNLINK_ID_ACK:
      if (!hasArity(e, 4)) throw badShape(e, opcode, 4, false);
      return { op: 'unlinkIdAck', id: e[1], from: e[2], to: e[3] };
    case undefined: // the control is not a tuple headed by an integer opcode
    default:
      return message === undefined ? { op: 'unknown', opcode, control } : { op: 'unknown', opcode, control, message };
  }
}

/** The arities of the control tuples we interpret. */
type ControlArity = 3 | 4 | 5;

/** A control tuple's elements of a known arity. */
type ControlElements<N extends ControlArity> = N extends 3
  ? readonly [Term, Term, Term]
  : N extends 4
    ? readonly [Term, Term, Term, Term]
    : readonly [Term, Term, Term, Term, Term];

/**
 * Whether the control tuple has `arity` elements. Module-level rather than a closure in
 * `parseControlMessage`, which runs once per message.
 */
function hasArity<N extends ControlArity>(e: readonly Term[], arity: N): e is ControlElements<N> {
  return e.length === arity;
}

/** ED_ERR_BAD_CONTROL for a control tuple of another arity than `arity`, or a missing message. */
function badShape(e: readonly Term[], opcode: number, arity: number, needsMessage: boolean): ErlangDistError {
  return new ErlangDistError('ED_ERR_BAD_CONTROL', {
    detail: `opcode ${opcode} wants arity ${arity}${needsMessage ? ' and a message' : ''}, got ${e.length}`,
    details: { opcode, arity: e.length },
  });
}

/** The historical cookie slot of SEND / REG_SEND: the empty atom, as OTP and erl_interface send it. */
const UNUSED: AtomTerm = atom('');

/**
 * Control tuples for what a hidden client or our accepting node sends. Pair the send family with a
 * message in `encodeDistFrame`.
 */
export const control = Object.freeze({
  send: (to: PidTerm): Term => tuple(int(ControlOp.SEND), UNUSED, to),
  /** Send to a process alias (OTP 24+, needs DFLAG_ALIAS on both sides). */
  aliasSend: (from: PidTerm, alias: ReferenceTerm): Term => tuple(int(ControlOp.ALIAS_SEND), from, alias),
  regSend: (from: PidTerm, toName: string): Term => tuple(int(ControlOp.REG_SEND), from, UNUSED, atom(toName)),
  link: (from: PidTerm, to: PidTerm): Term => tuple(int(ControlOp.LINK), from, to),
  exit: (from: PidTerm, to: PidTerm, reason: Term): Term => tuple(int(ControlOp.EXIT), from, to, reason),
  exit2: (from: PidTerm, to: PidTerm, reason: Term): Term => tuple(int(ControlOp.EXIT2), from, to, reason),
  /** Monitor `to` (a pid, or a registered name as an atom) from `from` under `ref`. */
  monitor: (from: PidTerm, to: PidTerm | AtomTerm, ref: ReferenceTerm): Term =>
    tuple(int(ControlOp.MONITOR_P), from, to, ref),
  demonitor: (from: PidTerm, to: PidTerm | AtomTerm, ref: ReferenceTerm): Term =>
    tuple(int(ControlOp.DEMONITOR_P), from, to, ref),
  monitorExit: (from: PidTerm | AtomTerm, to: PidTerm, ref: ReferenceTerm, reason: Term): Term =>
    tuple(int(ControlOp.MONITOR_P_EXIT), from, to, ref, reason),
  /** The acknowledgement owed to a peer's UNLINK_ID before anything else is sent to that pid. */
  unlinkIdAck: (id: Term, from: Term, to: Term): Term => tuple(int(ControlOp.UNLINK_ID_ACK), id, from, to),
});
