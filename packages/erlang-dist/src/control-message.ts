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
  const e = control.type === 'tuple' ? control.elements : [];
  const head = e[0];
  const opcode = head?.type === 'integer' && typeof head.value === 'number' ? head.value : undefined;
  const hasMessage = message !== undefined;
  const msg = message as Term;
  switch (opcode) {
    case ControlOp.SEND:
      return { op: 'send', to: checkShape(e, opcode, 3, true, hasMessage)[2]!, message: msg };
    case ControlOp.SEND_TT:
      return { op: 'send', to: checkShape(e, opcode, 4, true, hasMessage)[2]!, message: msg };
    case ControlOp.REG_SEND:
    case ControlOp.REG_SEND_TT: {
      const t = checkShape(e, opcode, opcode === ControlOp.REG_SEND ? 4 : 5, true, hasMessage);
      const name = t[3]!;
      if (name.type !== 'atom')
        throw new ErlangDistError('ED_ERR_BAD_CONTROL', {
          detail: 'REG_SEND name is not an atom',
          details: { opcode },
        });
      return { op: 'regSend', from: t[1]!, toName: name.name, message: msg };
    }
    case ControlOp.SEND_SENDER: {
      const t = checkShape(e, opcode, 3, true, hasMessage);
      return { op: 'sendSender', from: t[1]!, to: t[2]!, message: msg };
    }
    case ControlOp.SEND_SENDER_TT: {
      const t = checkShape(e, opcode, 4, true, hasMessage);
      return { op: 'sendSender', from: t[1]!, to: t[2]!, message: msg };
    }
    case ControlOp.ALIAS_SEND: {
      const t = checkShape(e, opcode, 3, true, hasMessage);
      return { op: 'aliasSend', from: t[1]!, alias: t[2]!, message: msg };
    }
    case ControlOp.LINK: {
      const t = checkShape(e, opcode, 3, false, hasMessage);
      return { op: 'link', from: t[1]!, to: t[2]! };
    }
    case ControlOp.UNLINK: {
      const t = checkShape(e, opcode, 3, false, hasMessage);
      return { op: 'unlink', from: t[1]!, to: t[2]! };
    }
    case ControlOp.EXIT: {
      const t = checkShape(e, opcode, 4, false, hasMessage);
      return { op: 'exit', from: t[1]!, to: t[2]!, reason: t[3]! };
    }
    case ControlOp.EXIT_TT: {
      const t = checkShape(e, opcode, 5, false, hasMessage);
      return { op: 'exit', from: t[1]!, to: t[2]!, reason: t[4]! };
    }
    case ControlOp.EXIT2: {
      const t = checkShape(e, opcode, 4, false, hasMessage);
      return { op: 'exit2', from: t[1]!, to: t[2]!, reason: t[3]! };
    }
    case ControlOp.EXIT2_TT: {
      const t = checkShape(e, opcode, 5, false, hasMessage);
      return { op: 'exit2', from: t[1]!, to: t[2]!, reason: t[4]! };
    }
    case ControlOp.PAYLOAD_EXIT:
    case ControlOp.PAYLOAD_EXIT_TT: {
      const t = checkShape(e, opcode, opcode === ControlOp.PAYLOAD_EXIT ? 3 : 4, true, hasMessage);
      return { op: 'exit', from: t[1]!, to: t[2]!, reason: msg };
    }
    case ControlOp.PAYLOAD_EXIT2:
    case ControlOp.PAYLOAD_EXIT2_TT: {
      const t = checkShape(e, opcode, opcode === ControlOp.PAYLOAD_EXIT2 ? 3 : 4, true, hasMessage);
      return { op: 'exit2', from: t[1]!, to: t[2]!, reason: msg };
    }
    case ControlOp.MONITOR_P: {
      const t = checkShape(e, opcode, 4, false, hasMessage);
      return { op: 'monitor', from: t[1]!, to: t[2]!, ref: t[3]! };
    }
    case ControlOp.DEMONITOR_P: {
      const t = checkShape(e, opcode, 4, false, hasMessage);
      return { op: 'demonitor', from: t[1]!, to: t[2]!, ref: t[3]! };
    }
    case ControlOp.MONITOR_P_EXIT: {
      const t = checkShape(e, opcode, 5, false, hasMessage);
      return { op: 'monitorExit', from: t[1]!, to: t[2]!, ref: t[3]!, reason: t[4]! };
    }
    case ControlOp.PAYLOAD_MONITOR_P_EXIT: {
      const t = checkShape(e, opcode, 4, true, hasMessage);
      return { op: 'monitorExit', from: t[1]!, to: t[2]!, ref: t[3]!, reason: msg };
    }
    case ControlOp.UNLINK_ID: {
      const t = checkShape(e, opcode, 4, false, hasMessage);
      return { op: 'unlinkId', id: t[1]!, from: t[2]!, to: t[3]! };
    }
    case ControlOp.UNLINK_ID_ACK: {
      const t = checkShape(e, opcode, 4, false, hasMessage);
      return { op: 'unlinkIdAck', id: t[1]!, from: t[2]!, to: t[3]! };
    }
    case undefined: // the control is not a tuple headed by an integer opcode
    default:
      return message === undefined ? { op: 'unknown', opcode, control } : { op: 'unknown', opcode, control, message };
  }
}

/**
 * The elements of a control tuple of `arity`; ED_ERR_BAD_CONTROL for another arity or a missing
 * message. Module-level rather than a closure in `parseControlMessage`, which runs once per message.
 */
function checkShape(
  e: readonly Term[],
  opcode: number | undefined,
  arity: number,
  needsMessage: boolean,
  hasMessage: boolean,
): readonly Term[] {
  if (e.length !== arity || (needsMessage && !hasMessage)) {
    throw new ErlangDistError('ED_ERR_BAD_CONTROL', {
      detail: `opcode ${opcode} wants arity ${arity}${needsMessage ? ' and a message' : ''}, got ${e.length}`,
      details: { opcode, arity: e.length },
    });
  }
  return e;
}

/** The historical cookie slot of SEND / REG_SEND: the empty atom, as OTP and erl_interface send it. */
const UNUSED: AtomTerm = atom('');

/** Control tuples for what a hidden client sends. Pair the send family with a message in `encodeDistFrame`. */
export const control = Object.freeze({
  send: (to: PidTerm): Term => tuple(int(ControlOp.SEND), UNUSED, to),
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
